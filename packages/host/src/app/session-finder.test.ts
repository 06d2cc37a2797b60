// The one session look-up on a real SQLite store: by full id, a short id's tail, an id prefix or a
// short id's first characters (indexed reads), ambiguity named with its candidates, another
// owner's session reported as missing, and a compression split followed to the live child.
import { COMPRESSED_END_REASON } from "@iris/agent";
import { openStore, type SqliteStore } from "@iris/store";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { findSession } from "./session-finder.js";

let dir: TempDir;
let store: SqliteStore;
beforeEach(() => {
  dir = tempDir("iris-finder");
  store = openStore(`${dir.path}/state.db`);
});
afterEach(async () => {
  await store.close();
  dir.cleanup();
});

const id = (tail: string) => `0190f3a2-7c41-7000-8000-0000${tail}`;

it("finds a session by the first characters of its short id, and names the candidates when several match", async () => {
  for (const tail of ["9be1c3f0", "9be1d000", "7a00beef"])
    await store.createSession({ source: "cli", id: id(tail) });
  const one = await findSession(store, "7a0");
  expect(one.ok && one.row.id).toBe(id("7a00beef"));
  expect(await findSession(store, "9BE1C")).toMatchObject({ ok: true, row: { id: id("9be1c3f0") } });
  expect(await findSession(store, "9be1")).toEqual({
    ok: false,
    code: "ambiguous",
    error: "'9be1' matches 2 sessions (9be1c3f0, 9be1d000); give more of the id",
  });
  expect(await findSession(store, "9b", { listHint: "see: iris sessions list" })).toEqual({
    ok: false,
    code: "not_found",
    error: "no session '9b' (see: iris sessions list)",
  });
  // The owner check narrows the candidates: only one of the two is this caller's.
  const mine = await findSession(store, "9be1", { owner: (r) => r.id.endsWith("d000") });
  expect(mine.ok && mine.row.id).toBe(id("9be1d000"));
});

it("finds a caller's session behind more of other owners' than one read holds", async () => {
  for (let i = 0; i < 8; i++) await store.createSession({ source: "api:other", id: id(`9be1000${i}`) });
  await store.createSession({ source: "api:me", id: id("9be1ffff") });
  const mine = (r: { source: string }) => r.source === "api:me";
  expect(await findSession(store, "9be1", { owner: mine })).toMatchObject({
    ok: true,
    row: { id: id("9be1ffff") },
  });
  // Still ambiguous for the other owner, and still not found for a third.
  expect(await findSession(store, "9be1", { owner: (r) => r.source === "api:other" })).toMatchObject({
    ok: false,
    code: "ambiguous",
  });
  expect(await findSession(store, "9be1", { owner: () => false })).toMatchObject({ code: "not_found" });
});

it("follows a compression split to the live child unless told not to", async () => {
  const first = await store.createSession({ source: "cli", id: id("5e5510aa") });
  await store.startSession({
    session: { source: "cli", parentSessionId: first.id, id: id("c41d0001") },
    ends: { sessionId: first.id, reason: COMPRESSED_END_REASON },
  });
  expect(await findSession(store, "5e55")).toMatchObject({ ok: true, row: { id: id("c41d0001") } });
  expect(await findSession(store, "5e55", { follow: false })).toMatchObject({
    ok: true,
    row: { id: first.id },
  });
});
