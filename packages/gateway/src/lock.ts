// One gateway per profile, one poller per bot token (SPEC G3). The profile's pid file is created
// exclusively and holds the owner's pid; a second start finds a live owner and refuses naming its
// pid, or with --replace stops it (SIGTERM, SIGKILL after 10 s) and takes over. A bot token is
// locked the same way in a folder shared by every home on the machine, so two homes cannot run
// one bot. A file whose owner is dead is stale and taken over.
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPLACE_TIMEOUT_MS = 10_000;

export interface LockFile {
  pid: number;
  started: number;
  home?: string;
}

export class LockHeldError extends Error {
  constructor(
    message: string,
    readonly pid: number,
  ) {
    super(message);
  }
}

export function readLock(path: string): LockFile | undefined {
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as Partial<LockFile>;
    return typeof v.pid === "number" && Number.isInteger(v.pid) && v.pid > 0
      ? { pid: v.pid, started: v.started ?? 0, ...(v.home ? { home: v.home } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates `path` exclusively for this process; false when someone else holds it. */
function tryCreate(path: string, body: LockFile): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, `${JSON.stringify(body)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/** Stops the owner of a lock: SIGTERM, then SIGKILL when it has not exited in time. */
export async function stopOwner(pid: number, timeoutMs = REPLACE_TIMEOUT_MS): Promise<void> {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  if (await waitForExit(pid, timeoutMs)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return;
  }
  await waitForExit(pid, 2000);
}

export interface AcquireOptions {
  what: string;
  replace?: boolean;
  home?: string;
}

/** Takes the lock at `path`; returns its release. Throws LockHeldError when a live owner keeps it. */
export async function acquireLock(path: string, opts: AcquireOptions): Promise<() => void> {
  const body: LockFile = { pid: process.pid, started: Date.now(), ...(opts.home ? { home: opts.home } : {}) };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path, body)) return () => releaseLock(path);
    const owner = readLock(path);
    if (owner && owner.pid !== process.pid && isAlive(owner.pid)) {
      if (!opts.replace)
        throw new LockHeldError(
          `${opts.what} is already running (pid ${owner.pid}${owner.home ? `, home ${owner.home}` : ""}); ` +
            "stop it with `iris gateway stop`, or start with --replace to take over",
          owner.pid,
        );
      await stopOwner(owner.pid);
    }
    // Stale (dead owner, unreadable file) or just stopped: remove it and try again.
    rmSync(path, { force: true });
  }
  throw new Error(`could not take the lock ${path}`);
}

function releaseLock(path: string): void {
  // Only our own lock is removed: a --replace successor may own the file by now.
  if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
}

/** The machine-wide lock folder for bot tokens (IRIS_LOCK_DIR overrides it, for tests). */
export function tokenLockDir(env: Record<string, string | undefined> = process.env): string {
  const dir = env.IRIS_LOCK_DIR ?? join(tmpdir(), "iris-gateway-locks");
  mkdirSync(dir, { recursive: true, mode: 0o1777 });
  return dir;
}

/** The lock file of one bot identity; the token itself never appears in a file name. */
export function tokenLockPath(identity: string, env?: Record<string, string | undefined>): string {
  const hash = createHash("sha256").update(identity).digest("hex").slice(0, 32);
  return join(tokenLockDir(env), `${hash}.lock`);
}
