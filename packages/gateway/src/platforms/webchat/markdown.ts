// Markdown for the web chat page, safely: every character of the text is HTML-escaped first, and
// only then are a few Markdown forms turned into tags (fenced and inline code, bold, italics,
// headings, lists, http(s) links). No raw HTML from a reply ever reaches the page. The function is
// self-contained because the page gets its source text (`renderMarkdown.toString()`).
export function renderMarkdown(src: string): string {
  const esc = (s: string) =>
    s
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#39;");
  const inline = (s: string) =>
    esc(s)
      .replace(/`([^`\n]+)`/g, "<code>$1</code>")
      .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[\s(])\*([^*\n]+)\*(?=[\s).,!?:;]|$)/g, "$1<em>$2</em>")
      .replace(/(^|[\s(])_([^_\n]+)_(?=[\s).,!?:;]|$)/g, "$1<em>$2</em>")
      .replace(
        /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g,
        '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>',
      );
  const out: string[] = [];
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  let list: "ul" | "ol" | undefined;
  const endList = () => {
    if (list) out.push(`</${list}>`);
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const fence = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      endList();
      const body: string[] = [];
      for (i++; i < lines.length && !new RegExp(`^\\s*${fence[1]}\\s*$`).test(lines[i] ?? ""); i++)
        body.push(lines[i] ?? "");
      const lang = fence[2] ? ` class="language-${esc(fence[2])}"` : "";
      out.push(`<pre><code${lang}>${esc(body.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (bullet || numbered) {
      const kind = bullet ? "ul" : "ol";
      if (list !== kind) {
        endList();
        out.push(`<${kind}>`);
        list = kind;
      }
      out.push(`<li>${inline((bullet ?? numbered)?.[1] ?? "")}</li>`);
      continue;
    }
    endList();
    if (heading) {
      const level = Math.min(6, (heading[1] ?? "#").length + 2);
      out.push(`<h${level}>${inline(heading[2] ?? "")}</h${level}>`);
    } else if (line.trim() === "") out.push("<br>");
    else out.push(`<p>${inline(line)}</p>`);
  }
  endList();
  return out.join("");
}
