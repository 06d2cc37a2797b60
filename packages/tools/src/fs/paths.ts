// Path resolution shared by the file tools: relative paths are relative to the task's working
// directory, and a leading `~` means the user's home, as in a shell.
import { homedir } from "node:os";
import path from "node:path";

export function resolvePath(cwd: string, p: string): string {
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return path.join(homedir(), p.slice(2));
  return path.resolve(cwd, p);
}
