// Markdown → Slack mrkdwn (SPEC G1): *bold*, _italic_, ~strike~, `code`, ``` blocks, <url|text>
// links; headings become bold lines; &, < and > are escaped outside code (Slack reads them as
// control characters). Code is left as it is.

const escapeControl = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function inline(text: string): string {
  const parts = text.split(/(`[^`\n]+`)/);
  return parts
    .map((p, i) => {
      if (i % 2 === 1) return p;
      let s = escapeControl(p);
      s = s.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_m, t: string, u: string) => `<${u}|${t}>`);
      // Bold first (its markers are doubled), kept aside so the italic rule does not see them.
      s = s.replace(
        /\*\*([^*\n]+)\*\*|__([^_\n]+)__/g,
        (_m, a?: string, b?: string) => `\u0001${a ?? b}\u0001`,
      );
      s = s.replace(/(^|[^\w*])\*([^*\n]+)\*(?!\w)/g, "$1_$2_");
      s = s.replace(/~~([^~\n]+)~~/g, "~$1~");
      return s.replace(/\u0001/g, "*");
    })
    .join("");
}

export function toMrkdwn(markdown: string): string {
  const out: string[] = [];
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) {
      inCode = !inCode;
      out.push("```");
      continue;
    }
    if (inCode) {
      out.push(line);
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) out.push(`*${inline(heading[1] ?? "").replace(/\*/g, "")}*`);
    else out.push(inline(line.replace(/^(\s*)[-*+]\s+/, "$1• ")));
  }
  return out.join("\n");
}
