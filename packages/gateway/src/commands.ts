// `iris gateway run|stop [--all]|status` and `iris pairing list|approve CODE|revoke USER`
// (SPEC G1, G3). Messages for the user go to stdout, diagnostics to stderr; each returns an
// exit code.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadProfileOrExit, openProfileStore, openStore, resolveHome, type Store } from "@iris/host";
import { parseSchedule } from "./cron.js";
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

async function withStore(io: CommandIo, fn: (store: Store) => Promise<number>): Promise<number> {
  const loaded = loadProfileOrExit({ env: io.env, ...(io.profile ? { profile: io.profile } : {}) });
  if (!loaded.ok) {
    io.err(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  if (loaded.profile.config.store.backend !== "sqlite") {
    io.err(
      "iris: the gateway's tables are not on store.backend: postgres yet (use a profile with the SQLite store)\n",
    );
    return 2;
  }
  const store = openStore(loaded.profile.home.paths.db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

export function cronList(io: CommandIo): Promise<number> {
  return withStore(io, async (store) => {
    const jobs = await store.cronState.list();
    if (jobs.length === 0) io.out("No scheduled jobs.\n");
    for (const j of jobs) {
      const last = j.lastSlot ? new Date(j.lastSlot).toISOString() : "never";
      io.out(
        `${j.id}  ${j.schedule}  → ${j.platform}:${j.chatId}  (missed: ${j.missed}; last ${last})  ${j.prompt}\n`,
      );
    }
    return 0;
  });
}

export async function cronAdd(
  io: CommandIo,
  schedule: string,
  to: string,
  prompt: string,
  missed: "run" | "skip",
): Promise<number> {
  const parsed = parseSchedule(schedule);
  if (!parsed.ok) {
    io.err(`iris: ${parsed.error}\n`);
    return 2;
  }
  const m = /^([a-z]+):(.+)$/.exec(to);
  if (!m) {
    io.err(
      `iris: --to ${to}: expected PLATFORM:CHAT, e.g. PLATFORM:#team (a channel) or PLATFORM:alice (a user)\n`,
    );
    return 2;
  }
  if (!prompt.trim()) {
    io.err("iris: the job needs a prompt\n");
    return 2;
  }
  return withStore(io, async (store) => {
    const job = await store.cronState.add({
      schedule,
      platform: m[1] ?? "",
      chatId: m[2] ?? "",
      missed,
      prompt,
    });
    io.out(`added job ${job.id}: ${schedule} → ${to}\n`);
    return 0;
  });
}

export function cronRemove(io: CommandIo, id: string): Promise<number> {
  return withStore(io, async (store) => {
    if (await store.cronState.remove(id)) {
      io.out(`removed job ${id}\n`);
      return 0;
    }
    io.err(`iris: no job ${id}\n`);
    return 1;
  });
}

/**
 * Runs `fn` on the gateway's tables in the profile's store (state.db or the Postgres schema),
 * brought up to date first, as a running gateway reaches them.
 */
export async function withGatewayTables(
  io: CommandIo,
  fn: (tables: GatewayTables) => Promise<number>,
): Promise<number> {
  const loaded = loadProfileOrExit({ env: io.env, ...(io.profile ? { profile: io.profile } : {}) });
  if (!loaded.ok) {
    io.err(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  let store: Store;
  try {
    store = await openProfileStore(loaded.profile);
  } catch (err) {
    io.err(`iris: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    let tables: GatewayTables;
    try {
      tables = await openGatewayTables(store);
    } catch (err) {
      // A store newer than this Iris, a migration that failed, a server gone: said, not thrown.
      io.err(`iris: ${(err as Error).message}\n`);
      return 1;
    }
    return await fn(tables);
  } finally {
    await store.close();
  }
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
