// Dangerous patterns about files, permissions and disks (T4, hermes-agent-facts §6.5).
import { hasFlag, isRecursiveFlagged, operands, writeTargets } from "./args.js";
import type { Command } from "./parse.js";
import { isBlockDevice, isCredentialPath, isShellStartupPath, isSystemPath, normalizePath } from "./paths.js";
import { type CommandRule, perCommand } from "./rule.js";

/** chmod modes that let group/others write, or everyone do everything. */
function isLooseMode(mode: string): boolean {
  if (/^0?[0-7]{3,4}$/.test(mode)) {
    const others = Number(mode.at(-1));
    return (others & 2) === 2;
  }
  return /(?:^|,)[ugo]*[ao][ugo]*[+=][rwxXst]*w/.test(mode);
}

function chmodMode(cmd: Command): string | undefined {
  return operands(cmd.args)[0];
}

function targetsSystemOrHome(cmd: Command, home: string, skipFirst: boolean): boolean {
  const ops = operands(cmd.args).slice(skipFirst ? 1 : 0);
  return ops.some((p) => {
    const n = normalizePath(p);
    return isSystemPath(n) || n === "/" || n === normalizePath(home) || n === "/home";
  });
}

export const FILE_PATTERNS: readonly CommandRule[] = [
  perCommand("recursive_delete", "deletes a folder and everything in it (rm -r)", (c) => {
    return c.name === "rm" && isRecursiveFlagged(c);
  }),
  perCommand("delete_system_path", "deletes or moves files in a system folder", (c) => {
    if (c.name !== "rm" && c.name !== "mv" && c.name !== "unlink" && c.name !== "shred") return false;
    const ops = operands(c.args);
    const sources = c.name === "mv" ? ops.slice(0, -1) : ops;
    return sources.some(isSystemPath);
  }),
  perCommand("bulk_delete", "deletes many files at once (find -delete, find -exec rm, xargs rm)", (c) => {
    if (c.name === "find") return c.args.includes("-delete");
    return c.name === "rm" && (c.via.includes("xargs") || c.via.includes("find-exec"));
  }),
  perCommand(
    "shred_files",
    "overwrites files so they cannot be recovered (shred)",
    (c) => c.name === "shred",
  ),
  perCommand("chmod_world_writable", "makes files writable by everyone (chmod 777, o+w)", (c) => {
    const mode = c.name === "chmod" ? chmodMode(c) : undefined;
    return mode !== undefined && isLooseMode(mode);
  }),
  perCommand(
    "recursive_permissions_system",
    "changes owner or permissions recursively on a system or home folder",
    (c, home) => {
      if (c.name !== "chmod" && c.name !== "chown" && c.name !== "chgrp") return false;
      return hasFlag(c.args, "R", "--recursive") && targetsSystemOrHome(c, home, true);
    },
  ),
  perCommand("chown_root_recursive", "gives files to root recursively (chown -R root)", (c) => {
    return (
      c.name === "chown" &&
      hasFlag(c.args, "R", "--recursive") &&
      /^root(?::|$)/.test(operands(c.args)[0] ?? "")
    );
  }),
  perCommand("write_system_config", "writes into a system folder (/etc, /usr, /boot, …)", (c) =>
    writeTargets(c).some(isSystemPath),
  ),
  perCommand(
    "write_credentials",
    "writes a credential or key file (.env, ~/.ssh, .aws/credentials, .netrc, …)",
    (c) => writeTargets(c).some(isCredentialPath),
  ),
  perCommand("write_shell_startup", "changes a shell start-up file (.bashrc, .zshrc, .profile, …)", (c) =>
    writeTargets(c).some(isShellStartupPath),
  ),
  perCommand("disk_copy", "reads or writes a raw disk with dd", (c) => {
    if (c.name !== "dd") return false;
    return c.args.some((a) => (a.startsWith("if=") || a.startsWith("of=")) && isBlockDevice(a.slice(3)));
  }),
  perCommand("partition_disk", "changes disk partitions or signatures (fdisk, parted, wipefs, …)", (c) =>
    ["fdisk", "sfdisk", "gdisk", "sgdisk", "parted", "wipefs", "cfdisk", "mkswap"].includes(c.name),
  ),
];
