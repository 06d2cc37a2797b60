// One poller per bot connection across processes and machines: on a Postgres profile
// every gateway process of the profile runs, but only the holder of a bot identity's advisory
// lock connects that bot; the others wait and take over when the holder dies (its database
// connection ends with it, and the server frees the lock). SQLite profiles keep the machine-wide
// lock files (lock.ts). Locks are taken in one order, so two processes never wait on each other.
import { createHash } from "node:crypto";
import type { ConnectionLock, GatewayTables } from "./state/index.js";

/** How often a waiting process asks for the lock again. */
const LOCK_RETRY_MS = 1000;

/** The lock's name: a hash of the identity (a token never appears in the database). */
export function connectionLockName(identity: string): string {
  return `gateway-connection:${createHash("sha256").update(identity).digest("hex").slice(0, 32)}`;
}

export interface WaitOptions {
  /** Resolves when the process should stop waiting (a signal). */
  until: Promise<void>;
  /** Told once per lock another process holds: this one waits for it. */
  onWait: (what: string) => void;
}

/**
 * Takes every `{name, what}` lock, waiting for each one another process holds. Resolves with
 * the held locks, or undefined when `until` came first (what was taken is released).
 */
export async function waitForConnectionLocks(
  tryLock: NonNullable<GatewayTables["tryLock"]>,
  wanted: readonly { name: string; what: string }[],
  opts: WaitOptions,
): Promise<ConnectionLock[] | undefined> {
  let stopped = false;
  void opts.until.then(() => {
    stopped = true;
  });
  const held: ConnectionLock[] = [];
  const sorted = [...wanted].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, what } of sorted) {
    let told = false;
    for (;;) {
      if (stopped) {
        for (const h of held) await h.release();
        return undefined;
      }
      const lock = await tryLock(name);
      if (lock) {
        held.push(lock);
        break;
      }
      if (!told) opts.onWait(what);
      told = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        opts.until,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, LOCK_RETRY_MS);
        }),
      ]);
      clearTimeout(timer);
    }
  }
  return held;
}
