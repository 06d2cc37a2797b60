// Custom slash commands from Markdown files, as Claude Code has them: `.iris/commands/NAME.md` in
// the project (the current folder and those above it, up to the repository's root) and
// `commands/NAME.md` in the profile's home. `/NAME args` sends the file's text as the message,
// `$ARGUMENTS` replaced by the args (appended when the text has no `$ARGUMENTS`). A front matter's
// `description:` is what /help shows. The nearest file of a name wins; the project's over the profile's.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface CustomCommand {
  /** `/name`. */
  command: string;
  description: string;
  file: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/** The command folders to read, nearest first. */
export function commandFolders(cwd: string, profileRoot: string): string[] {
  const folders: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    folders.push(join(dir, ".iris", "commands"));
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) break;
  }
  folders.push(join(profileRoot, "commands"));
  return folders;
}

function split(text: string): { meta: Record<string, string>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_-]+):\s*(.*)$/.exec(line);
    if (kv) meta[kv[1]!.toLowerCase()] = kv[2]!.replace(/^["']|["']$/g, "").trim();
  }
  return { meta, body: text.slice(m[0].length) };
}

export function listCustomCommands(
  cwd: string,
  profileRoot: string,
  taken: ReadonlySet<string>,
): CustomCommand[] {
  const found = new Map<string, CustomCommand>();
  for (const folder of commandFolders(cwd, profileRoot)) {
    let names: string[];
    try {
      names = readdirSync(folder).filter((f) => f.endsWith(".md"));
    } catch {
      continue;
    }
    for (const f of names.sort()) {
      const name = basename(f, ".md");
      const command = `/${name}`;
      if (!NAME.test(name) || found.has(command) || taken.has(command)) continue;
      const file = join(folder, f);
      let description = "";
      try {
        const { meta, body } = split(readFileSync(file, "utf8"));
        description = meta.description ?? body.trim().split(/\r?\n/)[0]?.slice(0, 60) ?? "";
      } catch {
        continue;
      }
      found.set(command, { command, description, file });
    }
  }
  return [...found.values()].sort((a, b) => a.command.localeCompare(b.command));
}

/** The message a custom command sends. */
export function expandCustomCommand(c: CustomCommand, args: string): string {
  const { body } = split(readFileSync(c.file, "utf8"));
  const text = body.trim();
  if (text.includes("$ARGUMENTS")) return text.split("$ARGUMENTS").join(args);
  return args ? `${text}\n\n${args}` : text;
}
