// Markdown → IRC (SPEC G1: each platform gets text in its own formatting): IRC shows no Markdown,
// so a model's `## Title`, `**bold**` and code fences would arrive as noise. Headings and bold
// become IRC bold (\x02), emphasis italic (\x1D), inline code monospace (\x11), strikethrough
// \x1E; fences are dropped and their lines kept as they are; links read "text <url>".
const BOLD = "\x02";
const ITALIC = "\x1D";
const MONO = "\x11";
const STRIKE = "\x1E";

const FENCE = /^\s*(```|~~~)/;

function inline(line: string): string {
  // Code spans first, kept apart so nothing inside them is formatted.
  const spans: string[] = [];
  let out = line.replace(/`([^`]+)`/g, (_, code: string) => {
    spans.push(code);
    return `\u0000${spans.length - 1}\u0000`;
  });
  out = out
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt: string, url: string) => (alt ? `${alt} <${url}>` : url))
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) =>
      text === url ? url : `${text} <${url}>`,
    )
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/__(?=\S)(.+?)(?<=\S)__/g, `${BOLD}$1${BOLD}`)
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, `${STRIKE}$1${STRIKE}`)
    .replace(/(^|[^\p{L}\p{N}*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\p{L}\p{N}*])/gu, `$1${ITALIC}$2${ITALIC}`)
    .replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]+?)(?<=\S)_(?![\p{L}\p{N}_])/gu, `$1${ITALIC}$2${ITALIC}`);
  return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => `${MONO}${spans[Number(i)] ?? ""}${MONO}`);
}

export function markdownToIrc(markdown: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push(`${BOLD}${inline(heading[1] ?? "")}${BOLD}`);
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) continue; // a rule
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      out.push(`${bullet[1] ?? ""}• ${inline(bullet[2] ?? "")}`);
      continue;
    }
    out.push(inline(line));
  }
  return out.join("\n");
}
