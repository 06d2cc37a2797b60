// What the chat does with a typed line before it reaches the model: `@path` attaches a file (its
// text is added below the message; binary files are named by type and size), `!cmd` runs a shell
// command for the user (its output is shown and goes along with the next message), and Tab
// completes slash commands and @paths.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { sniffImage } from "@iris/llm";
import { describeBinary, isBinaryContent } from "@iris/tools";

/** Attached files above this size are cut (the model can read the rest with read_file). */
const MAX_ATTACH_BYTES = 200_000;
const MAX_SHELL_CHARS = 20_000;

export interface Composed {
  text: string;
  notes: string[];
}

export function attachFiles(text: string, cwd: string): Composed {
  const notes: string[] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
    const ref = m[1]!.replace(/\\ /g, " ").replace(/[,.;:!?)]+$/, "");
    const path = resolve(cwd, ref);
    if (seen.has(path)) continue;
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue; // not a path: an @mention stays text
    seen.add(path);
    const rel = relative(cwd, path) || ref;
    if (st.isDirectory()) {
      const entries = readdirSync(path, { withFileTypes: true })
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
        .sort();
      blocks.push(`<directory path="${rel}">\n${entries.join("\n")}\n</directory>`);
      notes.push(`attached ${rel}/ (${entries.length} entries)`);
      continue;
    }
    const buf = readFileSync(path);
    if (sniffImage(buf)) continue; // an image goes along as an image (image-input.ts)
    if (isBinaryContent(buf)) {
      blocks.push(`<file path="${rel}">(binary: ${describeBinary(buf, st.size)}; not included)</file>`);
      notes.push(`${rel} is binary (${describeBinary(buf, st.size)}): named, not attached`);
      continue;
    }
    const cut = buf.length > MAX_ATTACH_BYTES;
    const body = buf.subarray(0, MAX_ATTACH_BYTES).toString("utf8");
    blocks.push(
      `<file path="${rel}">\n${body}${cut ? `\n… (cut at ${MAX_ATTACH_BYTES} of ${st.size} bytes; read_file shows the rest)` : ""}\n</file>`,
    );
    notes.push(`attached ${rel} (${body.split("\n").length} lines${cut ? ", cut" : ""})`);
  }
  return { text: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, notes };
}

/** `!cmd`: runs in the user's shell; returns what to show and the note sent with the next message. */
export function runUserShell(command: string, cwd: string): { shown: string; note: string } {
  const shell = process.env.SHELL || "/bin/sh";
  const r = spawnSync(shell, ["-c", command], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 10 * 60_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const raw = Buffer.concat([r.stdout ?? Buffer.alloc(0), r.stderr ?? Buffer.alloc(0)]);
  const output = isBinaryContent(raw)
    ? `[binary output: ${describeBinary(raw, raw.length)}]`
    : raw.toString("utf8");
  const status = r.error
    ? `failed: ${r.error.message}`
    : r.signal
      ? `killed by ${r.signal}`
      : `exit ${r.status}`;
  const kept = output.length > MAX_SHELL_CHARS ? `${output.slice(0, MAX_SHELL_CHARS)}\n… (cut)` : output;
  return {
    shown: `${output}${output.endsWith("\n") || !output ? "" : "\n"}(${status})\n`,
    note: `I ran \`${command}\` myself (${status}). Its output:\n\`\`\`\n${kept.trimEnd()}\n\`\`\``,
  };
}

/** readline's completer: slash commands at the start, @paths anywhere. */
export function makeCompleter(commands: () => string[], cwd: string) {
  return (line: string): [string[], string] => {
    if (/^\/\S*$/.test(line)) {
      const all = commands();
      const hits = all.filter((c) => c.startsWith(line));
      return [hits.length ? hits : all, line];
    }
    const at = /@(\S*)$/.exec(line);
    if (!at) return [[], line];
    const typed = at[1]!;
    const dir = typed.endsWith("/")
      ? typed
      : dirname(typed) === "." && !typed.startsWith("./")
        ? ""
        : `${dirname(typed)}/`;
    const prefix = typed.endsWith("/") ? "" : basename(typed);
    try {
      const hits = readdirSync(join(cwd, dir || "."), { withFileTypes: true })
        .filter((e) => e.name.startsWith(prefix) && (prefix.startsWith(".") || !e.name.startsWith(".")))
        .map((e) => `@${dir}${e.name}${e.isDirectory() ? "/" : ""}`)
        .sort();
      return [hits, `@${typed}`];
    } catch {
      return [[], line];
    }
  };
}
