// Commands no mode allows, not even `off` (T4): they destroy the machine or cut it off.
import { posix } from "node:path";
import { isRecursiveFlagged, operands, writeTargets } from "./args.js";
import { codeDeletesRoot } from "./code-deletes.js";
import { codeFloods, SELF_RESTART } from "./fork-code.js";
import { isDeviceWrite, realPath } from "./locations.js";
import { type Command, INTERPRETERS, type ParsedCommand } from "./parse.js";
import { isBlockDevice, isProtectedRoot } from "./paths.js";
import { PROGRAMS } from "./proof.js";
import { type CommandRule, perCommand } from "./rule.js";

function deletesProtectedRoot(cmd: Command, home: string): boolean {
  if (cmd.name === "rm") {
    if (cmd.args.includes("--no-preserve-root")) return true;
    return (
      isRecursiveFlagged(cmd) && operands(cmd.args).some((p) => isProtectedRoot(resolveIn(cmd, p), home))
    );
  }
  // rsync --delete from an empty folder into / or ~ empties it.
  if (cmd.name === "rsync" && cmd.args.some((a) => /^--(?:delete|del$|delete-\w+)/.test(a))) {
    const dest = operands(cmd.args).at(-1);
    return dest !== undefined && !/^[^/]*:/.test(dest) && isProtectedRoot(resolveIn(cmd, dest), home);
  }
  if (cmd.name === "find") {
    const start = operands(cmd.args)[0];
    // -delete, or -exec/-execdir/-ok running rm on what it finds.
    const deletes =
      cmd.args.includes("-delete") ||
      cmd.args.some(
        (a, i) => /^-(?:exec|execdir|ok|okdir)$/.test(a) && /(?:^|\/)rm$/.test(cmd.args[i + 1] ?? ""),
      );
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
  // A pattern that matches every process name, or every process of a user.
  if (cmd.name === "pkill" || cmd.name === "killall") {
    const names = operands(cmd.args.filter((_a, i) => !/^-[usgGPtF]$/.test(cmd.args[i - 1] ?? "")));
    if (names.some((n) => /^(?:\.|\.\*|\^|\^\.\*|\.\+|\*|)$/.test(n))) return true;
    return cmd.args.some((a) => a === "-u" || a.startsWith("--user")) && names.length === 0;
  }
  if (cmd.name !== "kill") return false;
  // kill [-s SIG | -SIG | -n NUM] pid…: the first dash word names the signal, later ones are pids.
  const args = [...cmd.args];
  if (args[0] === "-s" || args[0] === "-n") args.splice(0, 2);
  else if (args[0]?.startsWith("-") && args[0] !== "--") args.splice(0, 1);
  if (args[0] === "--") args.splice(0, 1);
  return args.includes("-1");
}

const POWER_PROGRAMS = new Set(
  "shutdown reboot halt poweroff kexec pm-suspend pm-hibernate pm-suspend-hybrid zzz ZZZ s2ram s2disk s2both rtcwake systemd-sleep hibernate".split(
    " ",
  ),
);
/** systemctl/loginctl verbs that change the power state or the runlevel. */
const POWER_VERBS =
  /^(?:poweroff|reboot|halt|kexec|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|sleep|soft-reboot|rescue|emergency|isolate|default|exit|switch-root)$/;
const POWER_DBUS = /PowerOff|Reboot|Halt|Suspend|Hibernate|HybridSleep|KExec|SetWallMessage|ScheduleShutdown/;

/** Files whose writing suspends, hibernates or reboots the machine. */
const POWER_FILES =
  /^\/sys\/power\/(?:state|disk|mem_sleep)$|^\/proc\/sys\/kernel\/(?:ctrl-alt-del|poweroff_cmd)$/;

/** Desktop sessions' own power-off and reboot commands. */
const SESSION_POWER: Record<string, RegExp> = {
  "gnome-session-quit": /^--(?:power-off|reboot)$/,
  "xfce4-session-logout": /^(?:--halt|--reboot|--suspend|--hibernate|-h|-r)$/,
  "lxqt-leave": /^--(?:shutdown|reboot)$/,
  "mate-session-save": /^--shutdown-dialog$/,
};

/** `kill -INT 1` makes init reboot (ctrl-alt-del); any signal to pid 1 is a power change. */
function signalsInit(cmd: Command): boolean {
  if (cmd.name !== "kill") return false;
  const args = [...cmd.args];
  if (args[0] === "-s" || args[0] === "-n") args.splice(0, 2);
  else if (args[0]?.startsWith("-") && args[0] !== "--") args.splice(0, 1);
  return args.filter((a) => a !== "--").includes("1");
}

/** Power state, kexec and runlevel changes, whatever the program that asks for them. */
function shutsDown(cmd: Command): boolean {
  if (POWER_PROGRAMS.has(cmd.name) || signalsInit(cmd)) return true;
  const session = SESSION_POWER[cmd.name];
  if (session && cmd.args.some((a) => session.test(a))) return true;
  const targets = [...writeTargets(cmd), ...(PROGRAMS[cmd.name]?.writes?.(cmd.args, cmd) ?? [])];
  if (targets.some((t) => POWER_FILES.test(realPath(t, cmd.cwd) ?? t))) return true;
  // `init 1`, `telinit s`: any runlevel but a reload (q).
  if (cmd.name === "init" || cmd.name === "telinit")
    return /^[0-6sSaAbBcCuU]$|^(?:single|emergency|rescue)$/.test(cmd.args[0] ?? "");
  if (cmd.name === "systemctl" || cmd.name === "loginctl")
    return operands(cmd.args).some(
      (a) => POWER_VERBS.test(a) || /^(?:rescue|emergency|poweroff|reboot|halt|kexec)\.target$/.test(a),
    );
  if (["dbus-send", "busctl", "gdbus", "qdbus"].includes(cmd.name))
    return cmd.args.some((a) => POWER_DBUS.test(a));
  return false;
}

/** mkfs and its relatives (mkfs.ext4, mke2fs, mkdosfs, mkntfs, mkexfatfs, newfs, mkswap, …). */
function makesFilesystem(cmd: Command): boolean {
  const n = cmd.name;
  if (
    /^mkfs(?:\..+)?$|^mk[a-z0-9]*fs(?:\..+)?$|^mke2fs$|^mkswap$|^newfs(?:_.+)?$|^mformat$|^mkfs_?[a-z]+$/.test(
      n,
    )
  )
    return !/^mkisofs$|^mksquashfs$/.test(n);
  if (n === "zpool") return ["create", "destroy", "labelclear"].includes(cmd.args[0] ?? "");
  // LVM and software RAID labels written on (or wiped from) a disk.
  if (n === "pvcreate" || n === "pvremove" || n === "vgremove" || n === "lvremove") return true;
  if (n === "mdadm") return cmd.args.some((a) => /^(?:--create|-C|--build|-B|--zero-superblock)$/.test(a));
  if (n === "cryptsetup") return cmd.args.some((a) => /^(?:luksFormat|erase|luksErase|reencrypt)$/.test(a));
  if (n === "nvme") return ["format", "sanitize"].includes(cmd.args[0] ?? "");
  if (n === "hdparm")
    return cmd.args.some((a) =>
      /^--(?:security-erase|security-erase-enhanced|trim-sector-ranges|make-bad-sector|write-sector)/.test(a),
    );
  return (
    n === "sg_format" ||
    n === "sg_sanitize" ||
    (n === "badblocks" && cmd.args.some((a) => /^-[a-zA-Z]*w/.test(a)))
  );
}

/** Every file the command writes, resolved through symlinks (a link in the work folder to a disk counts as the disk). */
function writesDevice(cmd: Command): boolean {
  const targets = [...writeTargets(cmd), ...(PROGRAMS[cmd.name]?.writes?.(cmd.args, cmd) ?? [])];
  return targets.some(
    (t) => isBlockDevice(t) || isDeviceWrite(t) || isDeviceWrite(realPath(t, cmd.cwd) ?? t),
  );
}

/** Options with which each partition tool only prints (the disk's name aside); anything else may write. */
const PARTITION_LISTING: Record<string, RegExp> = {
  fdisk: /^(?:-l|--list|-x|--list-details|-s|--getsz|-V|--version|-h|--help)$/,
  gdisk: /^(?:-l|-V|--version|-h|--help)$/,
  sfdisk:
    /^(?:-l|--list|-d|--dump|-s|--show-size|-J|--json|-F|--list-free|-V|--verify|-g|--show-geometry|-r|--reorder-dry)$/,
  sgdisk:
    /^(?:-p|--print|-v|--verify|-i|--info(?:=\d+)?|-O|--print-mbr|-L|--list-types|-V|--version|-\?|--help|\d+)$/,
  parted: /^(?:-l|--list|-s|--script|-m|--machine|print|unit|s|B|MiB|GiB|-v|--version|-h|--help)$/,
  cfdisk: /^(?:-V|--version|-h|--help)$/,
};

/** A partition tool that may write the disk's table (`sgdisk --zap-all`, `parted mklabel`, `echo w | fdisk`). */
function writesPartitionTable(cmd: Command): boolean {
  const listing = PARTITION_LISTING[cmd.name];
  if (!listing) return false;
  // An image file is a file like any other (the partition_disk pattern asks about it).
  const disk = (a: string) => isBlockDevice(a) || isDeviceWrite(a);
  if (!cmd.args.some(disk)) return false;
  // A disk alone opens the tool's editor (or reads a new table from its input).
  const rest = cmd.args.filter((a) => !disk(a));
  return rest.length === 0 || !rest.every((a) => listing.test(a));
}

const DEVICE_TOOLS = new Set(["shred", "wipefs", "blkdiscard", "ddrescue"]);

/** `xargs -P 0` / `parallel -j0` in the text (xargs' own options are gone once it is stripped). */
const UNLIMITED_PARALLEL =
  /\b(?:xargs|parallel)\b[^|;&\n]*?\s(?:-P\s*0|--max-procs[= ]0|-j\s*0|--jobs[= ]0)(?:\s|$)/;

/** xargs -P 0 / parallel -j 0: as many processes at once as there are inputs. */
function floodsProcesses(cmd: Command): boolean {
  const unlimited = (a: string, i: number, args: readonly string[]) =>
    ((a === "-P" || a === "--max-procs" || a === "-j" || a === "--jobs") && args[i + 1] === "0") ||
    /^(?:-P0|-j0|--max-procs=0|--jobs=0)$/.test(a);
  return (
    (cmd.name === "xargs" || cmd.name === "parallel" || cmd.via.includes("xargs")) && cmd.args.some(unlimited)
  );
}

/** `echo / | xargs rm -rf`, `xargs rm -rf <<< ~`: rm's operands are the static text xargs reads. */
function xargsDeletesRoot(parsed: ParsedCommand, home: string): boolean {
  return parsed.commands.some((c) => {
    if (c.name !== "rm" || !c.via.includes("xargs") || !isRecursiveFlagged(c)) return false;
    const fed = parsed.commands.find(
      (p) =>
        p.pipeline === c.pipeline &&
        p.pipePos === c.pipePos - 1 &&
        (p.name === "echo" || p.name === "printf"),
    );
    const words = [...c.heredocs, ...(fed?.args.filter((a) => !/^-[neE]+$/.test(a)) ?? [])]
      .join(" ")
      .replace(/\\n/g, " ")
      .split(/\s+/)
      .filter(Boolean);
    return words.some((w) => isProtectedRoot(resolveIn(c, w), home));
  });
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
    "creates or erases a filesystem (mkfs, mkdosfs, mkntfs, mkswap, …)",
    makesFilesystem,
  ),
  perCommand(
    "write_block_device",
    "writes directly to a disk or device, by any path (dd, redirect, cp, tee, sort -o, shred, wipefs)",
    (c) =>
      writesDevice(c) ||
      writesPartitionTable(c) ||
      (DEVICE_TOOLS.has(c.name) && operands(c.args).some((p) => isBlockDevice(p) || isDeviceWrite(p))),
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
  {
    key: "process_flood",
    description: "fork bomb or process flood (a self-forking function, background jobs in an endless loop)",
    test: (parsed) =>
      (parsed.floods?.length ?? 0) > 0 ||
      parsed.commands.some(floodsProcesses) ||
      (parsed.texts ?? [parsed.raw]).some((t) => UNLIMITED_PARALLEL.test(t)) ||
      parsed.commands.some(
        (c) => INTERPRETERS.has(c.name) && FORK_BOMBS.some((re) => re.test(c.args.join(" "))),
      ) ||
      codeFloods(parsed) ||
      (parsed.texts ?? [parsed.raw]).some((t) =>
        SELF_RESTART.test(
          t.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, (q) =>
            q.startsWith('"') && /\$\{?(?:0|BASH_SOURCE)/.test(q) ? q.slice(1, -1) : "''",
          ),
        ),
      ),
  },
  {
    key: "delete_system_root",
    description: "recursive delete of /, the home folder or a system folder",
    test: (parsed, home) => codeDeletesRoot(parsed, home) || xargsDeletesRoot(parsed, home),
  },
  perCommand("kill_all_processes", "kills every process (kill -1, killall5)", killsEverything),
  perCommand(
    "shutdown_host",
    "changes the power state or runlevel (shutdown, reboot, suspend, kexec, init 1, rescue)",
    shutsDown,
  ),
];
