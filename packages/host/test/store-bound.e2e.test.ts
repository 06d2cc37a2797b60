// Every store call on a turn's path has a bounded time: another connection holding
// state.db's write lock makes a turn end `store_error` once the busy timeout has passed — not
// hang — with nothing half-written; the lease is refused with a message; a search does not wait.
import { join } from "node:path";
import { openStore, type SqliteStore } from "@iris/store";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { acquireTurnLease } from "../src/app/session-lease.js";
import { loadProfile } from "../src/config/index.js";
import { storeOf } from "../src/testing.js";
import { startSession } from "./process.js";

/** Short, so the test waits little; the default is STORE_BUSY_TIMEOUT_MS. */
const BUSY_MS = 1500;
/** Far above the bound, far below "hung": the machine may be loaded. */
const HUNG_MS = 60_000;

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
let locker: SqliteStore;
let session: Session;

beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-bound");
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const store = openStore(profile.home.paths.db, { busyTimeoutMs: BUSY_MS });
  iris = await IrisProcess.open({ profile, platform: "cli", store });
  // A second connection, as another iris process would hold it.
  locker = openStore(profile.home.paths.db);
  session = await startSession(iris, fake, join(dir.path, "work"));
});
afterEach(async () => {
  if (locker.db.inTransaction) locker.db.exec("ROLLBACK");
  await locker.close();
  await iris.close();
  await fake.close();
  dir.cleanup();
});

const lock = () => locker.db.exec("BEGIN IMMEDIATE");
const unlock = () => locker.db.exec("ROLLBACK");

describe("store calls on a turn's path under another writer's lock", () => {
  it("ends the turn with store_error after the busy timeout, nothing half-written", async () => {
    // The lock is taken while the model answers: the user message is saved, the reply cannot be.
    fake.setHandler(() => {
      lock();
      return { text: "an answer that cannot be saved" };
    });
    const started = Date.now();
    const result = await session.send("hello");
    const took = Date.now() - started;
    expect(result.reason).toBe("store_error");
    expect(result.text).toMatch(/could not be saved \(state\.db stayed locked by another writer/);
    expect(took).toBeGreaterThanOrEqual(BUSY_MS - 50);
    expect(took).toBeLessThan(HUNG_MS);
    unlock();
    // The user's message is kept; no part of the reply, and no usage row without its message.
    expect((await session.history()).map((m) => m.role)).toEqual(["user"]);
    expect(await storeOf(iris).usageForSession(session.id)).toEqual([]);

    // Once the lock is gone the same session goes on.
    fake.setHandler(() => ({ text: "saved now" }));
    const next = await session.send("again");
    expect(next.reason).toBe("natural");
    const after = await session.history();
    expect(after.map((m) => m.role).slice(-2)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(after)).not.toContain("cannot be saved");
  });

  it("refuses a turn that cannot take the session's turn lease, before any model call", async () => {
    lock();
    // send takes the turn lease first: a store locked past its busy timeout refuses the turn,
    // as a second writer would be, and nothing is written.
    await expect(session.send("hello")).rejects.toThrow(/state\.db stayed locked by another writer/);
    expect(fake.requests).toHaveLength(0);
    unlock();
    expect(await session.history()).toEqual([]);
  });

  it("refuses the turn lease with a message, and searches without waiting", async () => {
    lock();
    const started = Date.now();
    const lease = await acquireTurnLease(storeOf(iris), session.id);
    expect(lease.ok).toBe(false);
    if (!lease.ok) expect(lease.message).toMatch(/state\.db stayed locked by another writer/);
    expect(Date.now() - started).toBeLessThan(HUNG_MS);
    // A search reads (WAL) and skips its own index catch-up instead of waiting for the lock.
    const searched = Date.now();
    expect(await storeOf(iris).search("hello")).toEqual([]);
    expect(Date.now() - searched).toBeLessThan(BUSY_MS);
    unlock();
  });
});
