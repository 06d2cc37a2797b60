// A word's value as far as it can be known without running anything. Quotes and backslashes are
// applied, `~`, `$HOME` and `${HOME}` become the home folder; everything else that the shell would
// compute at run time (parameter expansion, command substitution, arithmetic, ANSI-C quoting,
// brace expansion) makes the word *dynamic*: the check then asks instead of guessing.
import type { ShellParser, ShLit, ShNode, ShWord } from "./shell-parser.js";

export interface WordValue {
  /** The text with what is known filled in (dynamic parts kept as written, e.g. `$x`). */
  text: string;
  /** Why the value is only known at run time; undefined when it is fully static. */
  dynamic?: string;
  /** Has unquoted glob characters (`*`, `?`, `[…]`): the shell matches files. */
  glob: boolean;
}

const BRACE_EXPANSION = /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/;
const GLOB = /[*?]|\[[^\]]*\]/;

export function wordValue(parser: ShellParser, word: ShWord | null | undefined, home: string): WordValue {
  const out: WordValue = { text: "", glob: false };
  if (!word) return out;
  word.Parts.forEach((part, i) => {
    addPart(parser, part, home, out, i === 0, false);
  });
  // Braces may span quoted parts (`{rm,'-rf',/}`): test the word's unquoted shape as a whole.
  const shape = word.Parts.map((p) => (parser.type(p) === "Lit" ? (p as ShLit).Value : "Q")).join("");
  if (BRACE_EXPANSION.test(shape.replace(/\\./g, "E"))) dynamic(out, "brace expansion");
  return out;
}

function dynamic(out: WordValue, why: string): void {
  out.dynamic ??= why;
}

function addPart(
  parser: ShellParser,
  part: ShNode,
  home: string,
  out: WordValue,
  first: boolean,
  quoted: boolean,
): void {
  const type = parser.type(part);
  const node = part as unknown as Record<string, unknown>;
  switch (type) {
    case "Lit": {
      const raw = (part as ShLit).Value;
      if (quoted) {
        out.text += raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
        return;
      }
      if (GLOB.test(raw.replace(/\\./g, ""))) out.glob = true;
      let text = raw.replace(/\\(\n|.)/g, (_m, c: string) => (c === "\n" ? "" : c));
      if (first && raw.startsWith("~")) {
        const m = /^~([^/]*)/.exec(raw);
        if (m && m[1] === "") text = home + text.slice(1);
        else dynamic(out, "tilde expansion");
      } else if (first && /^[A-Za-z_][A-Za-z0-9_]*=~(?:\/|$)/.test(raw)) {
        // bash expands `~` after the `=` of a word that looks like an assignment (`dd of=~/x`).
        text = text.replace("=~", `=${home}`);
      }
      out.text += text;
      return;
    }
    case "SglQuoted":
      if (node.Dollar === true) dynamic(out, "ANSI-C quoting ($'…')");
      out.text += String(node.Value ?? "");
      return;
    case "DblQuoted":
      for (const p of (node.Parts as ShNode[] | null) ?? []) addPart(parser, p, home, out, false, true);
      return;
    case "ParamExp": {
      if (isPlainHome(node)) {
        out.text += home;
        return;
      }
      const name = (node.Param as ShLit | null)?.Value ?? "";
      dynamic(out, `parameter expansion ($${name})`);
      out.text += `$${name}`;
      return;
    }
    case "CmdSubst":
      dynamic(out, "command substitution");
      out.text += "$(…)";
      return;
    case "ArithmExp":
      dynamic(out, "arithmetic expansion");
      out.text += "$((…))";
      return;
    case "ProcSubst":
      // Becomes a /dev/fd path; its commands are analysed on their own.
      out.text += "/dev/fd/63";
      return;
    case "ExtGlob":
      out.glob = true;
      out.text += "@(…)";
      return;
    default:
      dynamic(out, `${type || "unknown"} in a word`);
  }
}

function isPlainHome(node: Record<string, unknown>): boolean {
  const param = node.Param as ShLit | null;
  if (param?.Value !== "HOME") return false;
  for (const k of ["Exp", "Repl", "Slice", "Index"]) if (node[k]) return false;
  return node.Length !== true && node.Excl !== true && !node.Names;
}
