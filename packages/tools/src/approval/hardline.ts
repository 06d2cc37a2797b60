// Commands no mode allows, not even `off` (T4): they destroy the machine or cut it off.
import { posix } from "node:path";
import { isRecursiveFlagged, operands, writeTargets } from "./args.js";
import type { Command } from "./parse.js";
import { isBlockDevice, isProtectedRoot } from "./paths.js";
import { type CommandRule, perCommand } from "./rule.js";

function deletesProtectedRoot(cmd: Command, home: string): boolean {
  if (cmd.name === "rm") {
    if (cmd.args.includes("--no-preserve-root")) return true;
    return (
      isRecursiveFlagged(cmd) && operands(cmd.args).some((p) => isProtectedRoot(resolveIn(cmd, p), home))
    );
  }
  if (cmd.name === "find") {
    const start = operands(cmd.args)[0];
    const deletes = cmd.args.includes("-delete");
    return deletes && start !== undefined && isProtectedRoot(resolveIn(cmd, start), home);
  }
  return false;
}

/** A relative path against the command's known working directory (`cd / && rm -rf *`). */
function resolveIn(cmd: Command, path: string): string {
  if (path.startsWith("/") || cmd.cwd === undefined) return path;
  return posix.join(cmd.cwd, path);
}

function killsEverything(cmd: Command): boolean {
  if (cmd.name === "killall5") return true;
  if (cmd.name !== "kill") return false;
  // kill [-s SIG | -SIG | -n NUM] pid…: the first dash word names the signal, later ones are pids.
  const args = [...cmd.args];
  if (args[0] === "-s" || args[0] === "-n") args.splice(0, 2);
  else if (args[0]?.startsWith("-") && args[0] !== "--") args.splice(0, 1);
  if (args[0] === "--") args.splice(0, 1);
  return args.includes("-1");
}

function shutsDown(cmd: Command): boolean {
  if (["shutdown", "reboot", "halt", "poweroff"].includes(cmd.name)) return true;
  if (cmd.name === "init" || cmd.name === "telinit") return ["0", "6"].includes(cmd.args[0] ?? "");
  if (cmd.name === "systemctl") {
    return operands(cmd.args).some((a) => ["poweroff", "reboot", "halt", "kexec"].includes(a));
  }
  return false;
}

const FORK_BOMBS = [
  // Bounded and anchored at a name's start: an unbounded name group backtracks quadratically.
  /(?<![\w:.])([\w:.]{1,64})\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&/,
  /\bfork\s+while\s+fork\b/,
  /\bwhile\s*\(\s*(?:1|true)\s*\)\s*\{?\s*fork\s*\(\s*\)/,
];

export const HARDLINE_RULES: readonly CommandRule[] = [
  perCommand(
    "delete_system_root",
    "recursive delete of /, the home folder or a system folder",
    deletesProtectedRoot,
  ),
  perCommand(
    "format_filesystem",
    "formats a filesystem (mkfs)",
    (c) => c.name.startsWith("mkfs") || c.name === "mke2fs" || c.name === "newfs",
  ),
  perCommand(
    "write_block_device",
    "writes directly to a disk device (dd, redirect, cp, tee, shred, wipefs)",
    (c) =>
      writeTargets(c).some(isBlockDevice) ||
      (["shred", "wipefs", "blkdiscard"].includes(c.name) && operands(c.args).some(isBlockDevice)),
  ),
  {
    key: "fork_bomb",
    description: "fork bomb",
    test: (parsed) =>
      (parsed.texts ?? [parsed.raw]).some((text) => {
        // Quoted text is only mentioned (`echo ':(){ :|:& };:'`); `sh -c '…'` is in `texts` opened.
        const code = text.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, "''");
        return FORK_BOMBS.some((re) => re.test(code));
      }),
  },
  perCommand("kill_all_processes", "kills every process (kill -1, killall5)", killsEverything),
  perCommand("shutdown_host", "shuts down or reboots the machine", shutsDown),
];
