// Path resolution shared by the file tools: relative paths are relative to the task's working
// directory, and a leading `~` means the home folder (the workspace's), as in a shell.
import { homedir } from "node:os";
import path from "node:path";

export function resolvePath(cwd: string, p: string, home: string = homedir()): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return path.posix.join(home, p.slice(2));
  return path.posix.resolve(cwd, p);
}
