// `iris gateway run|stop [--all]|status` and `iris pairing list|approve CODE|revoke USER`
// (SPEC G1, G3). Messages for the user go to stdout, diagnostics to stderr; each returns an
// exit code.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadProfileOrExit, resolveHome, StoredRecords } from "@iris/host";
import { isAlive, readLock, stopOwner } from "./lock.js";
import { healthPath, readHealth } from "./platform-health.js";
import {
  type GatewayIdentities,
  type GatewayState,
  type GatewayTables,
  openGatewayTables,
} from "./state/index.js";

export interface CommandIo {
  env: Record<string, string | undefined>;
  profile?: string;
  out: (s: string) => void;
  err: (s: string) => void;
}

/** Every profile's gateway pid file under one home base. */
function pidFiles(io: CommandIo, all: boolean): { profile: string; path: string }[] {
  const home = resolveHome({ env: io.env, ...(io.profile ? { profile: io.profile } : {}) });
  if (!all) return [{ profile: home.profile, path: home.paths.gatewayPid }];
  const base = resolveHome({ env: io.env });
  const found = [{ profile: base.profile, path: base.paths.gatewayPid }];
  let names: string[] = [];
  try {
    names = readdirSync(join(base.base, "profiles"));
  } catch {
    // no named profiles
  }
  for (const name of names)
    found.push({ profile: name, path: join(base.base, "profiles", name, "gateway.pid") });
  return found;
}

export async function gatewayStop(io: CommandIo, all = false): Promise<number> {
  let stopped = 0;
  for (const { profile, path } of pidFiles(io, all)) {
    const lock = readLock(path);
    if (!lock || !isAlive(lock.pid)) {
      if (!all) io.out(`no gateway is running for profile ${profile}\n`);
      continue;
    }
    await stopOwner(lock.pid);
    io.out(`stopped the gateway of profile ${profile} (pid ${lock.pid})\n`);
    stopped++;
  }
  if (all && stopped === 0) io.out("no gateway is running\n");
  return 0;
}

export function gatewayStatus(io: CommandIo): number {
  const [{ profile, path }] = pidFiles(io, false) as [{ profile: string; path: string }];
  const lock = readLock(path);
  if (lock && isAlive(lock.pid)) {
    io.out(
      `gateway of profile ${profile}: running (pid ${lock.pid}, since ${new Date(lock.started).toISOString()})\n`,
    );
    const health = readHealth(healthPath(dirname(path)), lock.pid);
    for (const [platform, h] of Object.entries(health?.platforms ?? {}))
      io.out(
        `  ${platform}: ${h.state}${h.state === "stopped" ? ` since ${new Date(h.since).toISOString()}: ${h.reason ?? "?"}` : ""}\n`,
      );
    return 0;
  }
  io.out(`gateway of profile ${profile}: not running${lock ? ` (stale pid file of pid ${lock.pid})` : ""}\n`);
  return 3;
}

/**
 * Runs `fn` on a front end's tables in the profile's store (state.db or the Postgres schema),
 * opened by `open` and brought up to date first, as a running gateway reaches them.
 */
export async function withProfileTables<T>(
  io: CommandIo,
  open: (records: StoredRecords) => Promise<T>,
  fn: (tables: T) => Promise<number>,
): Promise<number> {
  const loaded = loadProfileOrExit({ env: io.env, ...(io.profile ? { profile: io.profile } : {}) });
  if (!loaded.ok) {
    io.err(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  let records: StoredRecords;
  try {
    // Written to (pairing, cron jobs), so never the read-only fallback.
    records = await StoredRecords.open(loaded.profile, { readOnlyFallback: false });
  } catch (err) {
    io.err(`iris: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    let tables: T;
    try {
      tables = await open(records);
    } catch (err) {
      // A store newer than this Iris, a migration that failed, a server gone: said, not thrown.
      io.err(`iris: ${(err as Error).message}\n`);
      return 1;
    }
    return await fn(tables);
  } finally {
    await records.close();
  }
}

/** Runs `fn` on the gateway's own tables (chats, pairing, logins) in the profile's store. */
export function withGatewayTables(
  io: CommandIo,
  fn: (tables: GatewayTables) => Promise<number>,
): Promise<number> {
  return withProfileTables(io, openGatewayTables, fn);
}

function withState(
  io: CommandIo,
  fn: (state: GatewayState, ids: GatewayIdentities) => Promise<number>,
): Promise<number> {
  return withGatewayTables(io, (t) => fn(t.state, t.identities));
}

export function pairingList(io: CommandIo): Promise<number> {
  return withState(io, async (state, ids) => {
    const now = Date.now();
    const codes = await state.pendingCodes(now);
    // The whole id is shown where it is more than the name: approve the nick from the mask you know.
    const who = (name: string, id: string) => (id === name ? name : `${name} (${id})`);
    io.out(codes.length ? "Waiting for approval:\n" : "No pairing requests are waiting.\n");
    for (const c of codes) {
      const mins = Math.max(1, Math.round((c.expiresAt - now) / 60_000));
      io.out(`  ${c.code}  ${c.platform}  ${who(c.userName, c.userId)}  (expires in ${mins} min)\n`);
    }
    const approved = await state.approvedUsers();
    if (approved.length) io.out("Approved:\n");
    for (const a of approved)
      io.out(
        `  ${a.platform}  ${who(a.userName, a.userId)}  since ${new Date(a.approvedAt).toISOString()}\n`,
      );
    const bound = await ids.bindings();
    if (bound.length) io.out("Allowed names, bound to the identity they first spoke from:\n");
    for (const b of bound) io.out(`  ${b.platform}  ${b.name} = ${b.identity}\n`);
    return 0;
  });
}

export function pairingApprove(io: CommandIo, code: string): Promise<number> {
  return withState(io, async (state) => {
    const r = await state.approveCode(code);
    if (!r.ok) {
      io.err(`iris: ${r.reason}\n`);
      return 1;
    }
    io.out(`approved ${r.approved.userName} on ${r.approved.platform}\n`);
    return 0;
  });
}

export function pairingRevoke(io: CommandIo, user: string, platform?: string): Promise<number> {
  return withState(io, async (state, ids) => {
    // A bound allowlisted name is unbound too: the next identity to speak under it is bound.
    const n = (await state.revoke(user, platform)) + (await ids.unbind(user.toLowerCase(), platform));
    if (n === 0) {
      io.err(`iris: no approved user or bound name ${user}\n`);
      return 1;
    }
    io.out(`revoked ${user}\n`);
    return 0;
  });
}
