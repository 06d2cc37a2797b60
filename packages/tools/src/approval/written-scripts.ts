// Scripts a line writes and then runs (T4): `echo reboot > x.sh; sh x.sh`, `printf 'mkfs.ext4
// /dev/sda\n' > x && chmod +x x && ./x`, `cat > s <<EOF … EOF` then `. s`. The text written is
// judged as if typed, so a hard block stays one when it goes through a file of the same line.
import { posix } from "node:path";
import { EVAL_NAMES, INTERPRETER_NAMES, SHELL_NAMES } from "./concerns.js";
import type { Command, ParsedCommand } from "./parse.js";
import { PROGRAMS } from "./proof.js";

const decode = (t: string) => t.replace(/\\n/g, "\n").replace(/\\t/g, "\t");

/** The text `cmd` writes into a file by redirection or tee, when it is static. */
function writtenText(cmd: Command): string | undefined {
  if (cmd.name === "echo") return cmd.args.filter((a) => !/^-[neE]+$/.test(a)).join(" ");
  if (cmd.name === "printf") return decode(cmd.args.join(" "));
  if ((cmd.name === "cat" || cmd.name === "tee" || cmd.name === "") && cmd.heredocs.length)
    return cmd.heredocs.join("\n");
  return undefined;
}

function where(path: string, cwd: string | undefined): string {
  return path.startsWith("/") ? posix.normalize(path) : posix.join(cwd ?? "/.", path);
}

/** Texts written to a file that a later command of the line runs as a script or a program. */
export function writtenScripts(parsed: ParsedCommand): string[] {
  const files = new Map<string, string>();
  const out: string[] = [];
  for (const c of parsed.commands) {
    const text = writtenText(c);
    if (text !== undefined) {
      const targets = c.redirects.filter((r) => /^(?:>|>>|>\||&>|&>>)$/.test(r.op)).map((r) => r.target);
      if (c.name === "tee") targets.push(...c.args.filter((a) => !a.startsWith("-")));
      for (const t of targets) files.set(where(t, c.cwd), `${files.get(where(t, c.cwd)) ?? ""}${text}\n`);
    }
    const runner = SHELL_NAMES.has(c.name) || INTERPRETER_NAMES.has(c.name) || EVAL_NAMES.has(c.name);
    const script = runner ? c.args.find((a) => !a.startsWith("-")) : undefined;
    // `bash <(echo …)`, `. <(printf …)`: the text a substitution prints is the script.
    if (script?.startsWith("/dev/fd/"))
      for (const s of parsed.commands)
        if (s.via.includes("substitution")) {
          const text = writtenText(s);
          if (text !== undefined) out.push(text);
        }
    // `source /dev/stdin <<< …`: the here-string is the script.
    if (runner && (script === "/dev/stdin" || script === "-")) out.push(...c.heredocs);
    for (const [file, body] of files) {
      const runsFile = script !== undefined && where(script, c.cwd) === file;
      // `./x` runs the file itself: an unknown name equal to a file just written.
      const runsItself = !PROGRAMS[c.name] && !runner && c.name === posix.basename(file);
      if (runsFile || runsItself) out.push(body);
    }
  }
  return out.slice(0, 8);
}
