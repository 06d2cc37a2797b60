// The bubblewrap sandbox execute_code uses on the local workspace: every namespace unshared (no
// network, its own pids), the environment cleared, /usr read-only, a fresh /tmp, and only the
// work folder writable (bound at its own path, so paths are the same inside and out). bwrap
// often cannot run where the host is itself a container (OpenClaw #83018): that is found out
// once, by running `true` in the same sandbox, and said instead of running unsandboxed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export const BWRAP = "/usr/bin/bwrap";

export interface BwrapOptions {
  /** The work folder, bound read-write. */
  workdir: string;
  /** Where the program starts (inside the work folder or not: it must exist in the sandbox). */
  cwd: string;
  /** A folder of this machine bound read-only at /run/iris (the program, its stub, the socket). */
  channelDir: string;
  /** Read-only binds besides /usr (the Node binary's folder when it lives elsewhere). */
  extraRo?: string[];
  env: Record<string, string>;
}

/** /usr read-only, and /bin, /lib… as the links into it a merged-/usr system has. */
function usrArgs(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const link of ["bin", "lib", "lib64", "sbin"])
    if (existsSync(`/usr/${link}`)) args.push("--symlink", `usr/${link}`, `/${link}`);
  return args;
}

export function bwrapArgs(o: BwrapOptions): string[] {
  const args = usrArgs();
  for (const dir of o.extraRo ?? []) if (!dir.startsWith("/usr/")) args.push("--ro-bind", dir, dir);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  args.push("--bind", o.workdir, o.workdir);
  // The socket's folder is writable only so connect() works on it; nothing else is kept there.
  args.push("--bind", o.channelDir, "/run/iris");
  args.push("--chdir", o.cwd);
  args.push("--unshare-all", "--die-with-parent", "--new-session", "--clearenv");
  for (const [k, v] of Object.entries(o.env)) args.push("--setenv", k, v);
  return args;
}

let usable: true | string | undefined;

/** True when bwrap runs here; else why not (said to the model and in `iris tools`). */
export function bwrapUsable(): true | string {
  if (usable !== undefined) return usable;
  if (!existsSync(BWRAP)) {
    usable = "execute_code needs bubblewrap on the local workspace (apt-get install bubblewrap)";
    return usable;
  }
  const r = spawnSync(BWRAP, [...usrArgs(), "--unshare-all", "--die-with-parent", "/usr/bin/true"], {
    encoding: "utf8",
    timeout: 10_000,
  });
  usable =
    r.status === 0
      ? true
      : `bubblewrap cannot make a sandbox here (${(r.stderr || r.error?.message || "").trim() || `exit ${r.status}`}); inside a container use the docker workspace instead`;
  return usable;
}

/** The interpreter for a language, and what must be bound for it beside /usr. */
export function interpreterOf(language: "python" | "javascript"): { bin: string; extraRo: string[] } {
  if (language === "python") return { bin: "/usr/bin/python3", extraRo: [] };
  const node = process.execPath;
  return { bin: node, extraRo: node.startsWith("/usr/") ? [] : [path.dirname(node)] };
}
