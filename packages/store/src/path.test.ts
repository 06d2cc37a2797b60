// Path assembly by runs (migration 0004): every shape of tree, and rows damaged by hand.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, Message } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "./driver.js";
import { migrate } from "./migrate.js";
import { PathReader } from "./path.js";
import { RunReader } from "./path-runs.js";
import type { NodeRow } from "./rows.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-path-"));
  store = openStore(join(dir, "state.db"));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (text: string): Message => ({ role: "user", content: text });
const assistant = (text: string): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  origin: { provider: "openai", apiMode: "responses", model: "gpt-x" },
  usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 1, reasoningTokens: 3 },
  stopReason: "end",
});

/** The ground truth: follow parent pointers one node at a time, each node read whole by id. */
function walked(s: Store, leafId: string): NodeRow[] {
  const out: NodeRow[] = [];
  for (let node = s.findNode(leafId); node; node = node.parentId ? s.findNode(node.parentId) : undefined) {
    out.unshift(node);
  }
  return out;
}

const runCount = (s: Store, leafId: string) => new PathReader(s.db).runs(leafId)?.length;
const runStarts = (s: Store) =>
  s.db.prepare("SELECT run_start FROM nodes ORDER BY seq").pluck(true).all() as (number | null)[];

describe("path assembly by runs", () => {
  it("reads a linear session as one run and returns the same rows as a node-by-node walk", () => {
    const s = store.createSession({ source: "cli" });
    store.appendNode(s.id, { kind: "note", text: "a note with text", tokens: 4 });
    for (let i = 0; i < 30; i++) {
      store.appendNodes(s.id, [
        { kind: "message", message: user(`question ${i} 한국어`), tokens: 3 },
        { kind: "message", message: assistant(`answer ${i}`) },
      ]);
    }
    const leaf = store.activeLeaf(s.id) as NodeRow;
    const path = store.pathToRoot(leaf.id);
    expect(path).toHaveLength(61);
    expect(path).toEqual(walked(store, leaf.id));
    expect(path[0]?.kind).toBe("note");
    expect(path[0]?.text).toBe("a note with text");
    expect(path[2]?.origin).toEqual({ provider: "openai", apiMode: "responses", model: "gpt-x" });
    expect(path[2]?.usage?.reasoningTokens).toBe(3);
    // Only the first node starts a run, and the path is read as that one run.
    expect(runStarts(store).filter((r) => r === null)).toHaveLength(1);
    expect(runCount(store, leaf.id)).toBe(1);
  });

  it("follows branches, interleaved sessions and nodes appended without moving the leaf", () => {
    const a = store.createSession({ source: "cli" });
    const b = store.createSession({ source: "cli" });
    const a1 = store.appendNode(a.id, { kind: "message", message: user("a1") });
    store.appendNode(b.id, { kind: "message", message: user("b1") });
    const a2 = store.appendNode(a.id, { kind: "message", message: assistant("a2") });
    store.appendNode(b.id, { kind: "message", message: assistant("b2") });
    const a3 = store.appendNode(a.id, { kind: "message", message: user("a3") });
    const side = store.appendNode(a.id, { kind: "note", text: "aside", setActive: false });
    const a4 = store.appendNode(a.id, { kind: "message", message: assistant("a4") });
    const edited = store.editUserMessage(a3.id, user("a3 edited"));
    const a5 = store.appendNode(a.id, { kind: "message", message: assistant("a5") });
    const bLeaf = store.appendNode(b.id, { kind: "message", message: user("b3") });

    expect(store.pathToRoot(a4.id).map((n) => n.id)).toEqual([a1.id, a2.id, a3.id, a4.id]);
    expect(store.pathToRoot(a5.id).map((n) => n.id)).toEqual([a1.id, a2.id, edited.id, a5.id]);
    expect(store.pathToRoot(side.id).map((n) => n.id)).toEqual([a1.id, a2.id, a3.id, side.id]);
    for (const leaf of [a4, a5, side, bLeaf]) {
      expect(store.pathToRoot(leaf.id)).toEqual(walked(store, leaf.id));
    }
    expect(store.pathToRoot(bLeaf.id).map((n) => n.sessionId)).toEqual([b.id, b.id, b.id]);
    // a4 follows the side note's parent, not the side note: a run of its own.
    expect([a4, a5, side, bLeaf].map((n) => runCount(store, n.id))).toEqual([2, 2, 1, 1]);
    expect(
      store
        .listBranches(a.id)
        .map((n) => n.id)
        .sort(),
    ).toEqual([side.id, a4.id, a5.id].sort());
  });

  it("follows the newest node without rewriting the sessions row, and pins the leaf when asked", () => {
    const s = store.createSession({ source: "cli" });
    const raw = () =>
      store.db
        .prepare("SELECT active_leaf_id AS pinned, leaf_follows_newest AS follows FROM sessions WHERE id = ?")
        .get(s.id);
    expect(store.activeLeaf(s.id)).toBeNull();
    const a = store.appendNode(s.id, { kind: "message", message: user("a") });
    const b = store.appendNode(s.id, { kind: "message", message: assistant("b") });
    expect(raw()).toEqual({ pinned: null, follows: 1 });
    expect(store.getSession(s.id).activeLeafId).toBe(b.id);
    expect(store.listSessions()[0]?.activeLeafId).toBe(b.id);

    // A node that does not move the leaf pins it where it was.
    const aside = store.appendNode(s.id, { kind: "note", text: "aside", setActive: false });
    expect(raw()).toEqual({ pinned: b.id, follows: 0 });
    expect(store.activeLeaf(s.id)?.id).toBe(b.id);
    const c = store.appendNode(s.id, { kind: "message", message: user("c") });
    expect(c.parentId).toBe(b.id);
    expect(raw()).toEqual({ pinned: null, follows: 1 });
    expect(store.activeLeaf(s.id)?.id).toBe(c.id);

    // Branching pins; the next append continues the branch and follows again.
    store.branchFrom(a.id);
    expect(store.getSession(s.id).activeLeafId).toBe(a.id);
    const d = store.appendNode(s.id, { kind: "message", message: assistant("d") });
    expect(d.parentId).toBe(a.id);
    expect(store.getSession(s.id).activeLeafId).toBe(d.id);
    expect(store.activePath(s.id).map((n) => n.id)).toEqual([a.id, d.id]);
    expect(store.pathToRoot(aside.id).map((n) => n.id)).toEqual([a.id, b.id, aside.id]);

    // Starting over empties the active path; the next append is a new root, the old tree stays.
    store.clearActiveLeaf(s.id);
    expect(store.activePath(s.id)).toEqual([]);
    const fresh = store.appendNode(s.id, { kind: "message", message: user("again") });
    expect(fresh.parentId).toBeNull();
    expect(store.activePath(s.id).map((n) => n.id)).toEqual([fresh.id]);
    expect(store.pathToRoot(d.id).map((n) => n.id)).toEqual([a.id, d.id]);
  });

  it("re-reads only what was appended since, and never hands two reads the same objects", () => {
    const s = store.createSession({ source: "cli" });
    for (let i = 0; i < 10; i++) store.appendNode(s.id, { kind: "message", message: user(`m${i}`) });
    const first = store.activePath(s.id);
    (first[0]?.message as { content: string }).content = "changed by a caller";
    // Another connection (another process) appends to the same session meanwhile.
    const other = openStore(join(dir, "state.db"));
    other.appendNodes(s.id, [
      { kind: "message", message: assistant("from elsewhere") },
      { kind: "message", message: user("m11") },
    ]);
    other.close();
    const second = store.activePath(s.id);
    expect(second).toHaveLength(12);
    expect(second[0]?.message).toEqual(user("m0"));
    expect(second).toEqual(walked(store, second[11]?.id as string));

    // A branch below the cached run, then the old tip again: both exact.
    const oldTip = second[11] as NodeRow;
    const edited = store.editUserMessage(second[4]?.id as string, user("m4 edited"));
    expect(store.activePath(s.id).map((n) => n.id)).toEqual([
      ...second.slice(0, 4).map((n) => n.id),
      edited.id,
    ]);
    expect(store.pathToRoot(oldTip.id)).toEqual(walked(store, oldTip.id));
    store.appendNode(s.id, { kind: "message", message: assistant("after the edit") });
    const leaf = store.activeLeaf(s.id) as NodeRow;
    expect(store.pathToRoot(leaf.id)).toEqual(walked(store, leaf.id));
  });

  it("keeps at most its number of runs cached and still reads every evicted one exactly", () => {
    const reader = new RunReader(store.db, 8);
    const runs = Array.from({ length: 10 }, () => {
      const s = store.createSession({ source: "cli" });
      const a = store.appendNode(s.id, { kind: "message", message: user("a") });
      const b = store.appendNode(s.id, { kind: "message", message: assistant("b") });
      return { session: s.id, start: a.seq, end: b.seq, ids: [a.id, b.id] };
    });
    for (const r of [...runs, ...runs]) {
      expect(reader.read(r.session, r.start, r.end)?.map((n) => n.id)).toEqual(r.ids);
      expect(reader.cachedRuns).toBeLessThanOrEqual(8);
    }
    expect(reader.cachedRuns).toBe(8);
  });

  it("by default keeps a run for each of hundreds of sessions", () => {
    const reader = new RunReader(store.db);
    for (let i = 0; i < 300; i++) {
      const s = store.createSession({ source: "cli" });
      const a = store.appendNode(s.id, { kind: "message", message: user(`q${i}`) });
      reader.read(s.id, a.seq, a.seq);
    }
    expect(reader.cachedRuns).toBe(300);
  });

  it("ends at a compaction root", () => {
    const s = store.createSession({ source: "cli" });
    const old = store.appendNode(s.id, { kind: "message", message: user("old") });
    const summary = store.appendNode(s.id, { kind: "compaction", text: "summary", expandsTo: old.id });
    const next = store.appendNode(s.id, { kind: "message", message: user("next") });
    const path = store.pathToRoot(next.id);
    expect(path.map((n) => n.id)).toEqual([summary.id, next.id]);
    expect(path[0]).toMatchObject({ kind: "compaction", expandsTo: old.id, text: "summary", role: null });
    expect(path).toEqual(walked(store, next.id));
  });

  it("still follows the pointers exactly when rows were deleted or re-pointed by hand", () => {
    const s = store.createSession({ source: "cli" });
    const rows = Array.from({ length: 8 }, (_, i) =>
      store.appendNode(s.id, { kind: "message", message: user(`m${i}`) }),
    );
    const ids = rows.map((r) => r.id);
    store.db.pragma("foreign_keys = OFF");
    // A node deleted from the middle: the walk stops at the gap, and so must the fast path.
    store.db.prepare("DELETE FROM nodes WHERE id = ?").run(ids[3]);
    expect(runCount(store, ids[7] as string)).toBeUndefined();
    expect(store.pathToRoot(ids[7] as string).map((n) => n.id)).toEqual(ids.slice(4));
    // A parent pointer changed to skip a node: the skipped node is not on the path.
    store.db.prepare("UPDATE nodes SET parent_id = ? WHERE id = ?").run(ids[0], ids[2]);
    expect(store.pathToRoot(ids[2] as string).map((n) => n.id)).toEqual([ids[0], ids[2]]);
    expect(store.pathToRoot(ids[2] as string)).toEqual(walked(store, ids[2] as string));
  });

  it("rejects a node id the path reader could not tell apart", () => {
    const s = store.createSession({ source: "cli" });
    for (const bad of ["a\u001fb", "line\nbreak", ""]) {
      expect(() => store.appendNode(s.id, { id: bad, kind: "message", message: user("x") })).toThrow(
        /node id/,
      );
    }
  });

  it("fills run_start for the nodes of a database made before migration 4", () => {
    store.close();
    const path = join(dir, "old.db");
    const old = openDatabase(path);
    migrate(old, 3);
    old.exec(`INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 0), ('t', 'cli', 0)`);
    const insert = old.prepare(
      "INSERT INTO nodes (id, session_id, parent_id, kind, role, payload, created_at) VALUES (?, ?, ?, 'message', 'user', ?, 0)",
    );
    // s: n1 <- n2 <- n3, then a branch n4 below n1 and n5 below n4; t interleaved.
    for (const [id, session, parent] of [
      ["n1", "s", null],
      ["t1", "t", null],
      ["n2", "s", "n1"],
      ["n3", "s", "n2"],
      ["t2", "t", "t1"],
      ["n4", "s", "n1"],
      ["n5", "s", "n4"],
    ] as const) {
      insert.run(id, session, parent, JSON.stringify(user(id)));
    }
    old.close();
    store = openStore(path);
    expect(runStarts(store)).toEqual([null, null, 1, 1, 2, null, 6]);
    expect(store.pathToRoot("n3").map((n) => n.id)).toEqual(["n1", "n2", "n3"]);
    expect(store.pathToRoot("n5").map((n) => n.id)).toEqual(["n1", "n4", "n5"]);
    expect(store.pathToRoot("t2").map((n) => n.id)).toEqual(["t1", "t2"]);
    expect(["n3", "n5", "t2"].map((id) => runCount(store, id))).toEqual([1, 2, 1]);
    expect(store.db.prepare("PRAGMA integrity_check").pluck(true).get()).toBe("ok");
  });
});
