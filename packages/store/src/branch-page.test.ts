// A branch's path read a page at a time (branch-page.ts): every page size gives exactly the
// path (root first, no node twice, none of another branch's), across several runs, with another
// session's rows interleaved; a damaged run_start hint falls back to the exact path; a node of
// another session is undefined.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, Message } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DashboardReads } from "./dashboard-reads.js";
import type { NodeRow } from "./rows.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-branch-page-"));
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
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "end",
});

function allPages(sessionId: string, leafId: string, size: number): NodeRow[] {
  const out: NodeRow[] = [];
  let after = 0;
  for (;;) {
    const page = store.branchPage(sessionId, leafId, after, size);
    if (!page) throw new Error("no such leaf");
    out.push(...page);
    const last = page.at(-1);
    if (page.length < size || !last) return out;
    after = last.seq;
  }
}

function branched() {
  const s = store.createSession({ source: "cli" });
  const other = store.createSession({ source: "cli" });
  let edited: NodeRow | undefined;
  for (let i = 0; i < 40; i++) {
    const [q] = store.appendNodes(s.id, [
      { kind: "message", message: user(`q${i}`) },
      { kind: "message", message: assistant(`a${i}`) },
    ]);
    if (i === 25) edited = q;
    store.appendNode(other.id, { kind: "message", message: user(`other ${i}`) });
  }
  const oldTip = store.activeLeaf(s.id) as NodeRow;
  store.editUserMessage((edited as NodeRow).id, user("q25 again"));
  for (let i = 0; i < 30; i++) {
    store.appendNodes(s.id, [
      { kind: "message", message: assistant(`b${i}`) },
      { kind: "message", message: user(`bq${i}`) },
    ]);
    store.appendNode(other.id, { kind: "message", message: user(`other b${i}`) });
  }
  const newTip = store.activeLeaf(s.id) as NodeRow;
  return { s, other, oldTip, newTip };
}

describe("branchPage", () => {
  it("gives exactly each branch's path, a page at a time, whatever the page size", () => {
    const { s, oldTip, newTip } = branched();
    for (const tip of [oldTip, newTip]) {
      const path = store.pathToRoot(tip.id);
      for (const size of [1, 7, 50, 200, 10_000]) expect(allPages(s.id, tip.id, size)).toEqual(path);
    }
    const texts = allPages(s.id, newTip.id, 13).map((n) => JSON.stringify(n.message));
    expect(texts).toHaveLength(51 + 60);
    expect(texts.join(" ")).toContain("q25 again");
    expect(texts.join(" ")).not.toContain('"a39"');
    expect(texts.join(" ")).not.toContain("other");
  });

  it("falls back to the exact path when the run hints are damaged", () => {
    const { s, newTip } = branched();
    const path = store.pathToRoot(newTip.id);
    // Every node claims its run starts at the session's first node: the ranges then hold the
    // other branch's and the other session's rows, which the chain check catches.
    const first = path[0] as NodeRow;
    store.db.prepare("UPDATE nodes SET run_start = ? WHERE session_id = ?").run(first.seq, s.id);
    expect(allPages(s.id, newTip.id, 50)).toEqual(store.pathToRoot(newTip.id));
  });

  it("is undefined for a node of another session", () => {
    const { s, other } = branched();
    const foreign = store.activeLeaf(other.id) as NodeRow;
    expect(store.branchPage(s.id, foreign.id, 0, 10)).toBeUndefined();
    expect(store.branchPage(s.id, "no-such-node", 0, 10)).toBeUndefined();
  });
});

describe("branch tips (scanned once, then only what was appended)", () => {
  it("match a scan of the session after appends and edits, and a deleted session has none", () => {
    const { s, other } = branched();
    const tips = (id: string) => store.dashboard.reads.branchTips(id).map((t) => t.id);
    const scan = (id: string) => store.listBranches(id).map((n) => n.id);
    expect(tips(s.id)).toEqual(scan(s.id));
    expect(tips(s.id)).toHaveLength(2);
    // Appended since the first look: the active tip moves, an edit adds a third branch.
    const q = store.appendNode(s.id, { kind: "message", message: user("one more") });
    store.appendNode(s.id, { kind: "message", message: assistant("and its answer") });
    store.editUserMessage(q.id, user("one more, reworded"));
    expect(tips(s.id)).toEqual(scan(s.id));
    expect(tips(s.id)).toHaveLength(3);
    expect(tips(other.id)).toEqual(scan(other.id));
    store.deleteSession(other.id);
    expect(tips(other.id)).toEqual([]);
    // Forks: q24's answer (the first edit) and the node "one more" hung off (the second).
    const forks = store.dashboard.reads.forkPoints(s.id);
    const scanned = new Set(
      store.listBranches(s.id).flatMap((tip) => store.pathToRoot(tip.id).map((n) => n.parentId ?? "")),
    );
    expect(forks.size).toBe(2);
    // A fresh scan (another connection's reads) finds the same as the kept, updated ones.
    const fresh = new DashboardReads(store.db);
    expect(fresh.forkPoints(s.id)).toEqual(forks);
    expect(fresh.branchTips(s.id)).toEqual(store.dashboard.reads.branchTips(s.id));
    for (const f of forks) expect(scanned.has(f)).toBe(true);
  });
});
