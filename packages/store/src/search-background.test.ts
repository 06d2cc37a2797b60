// Search indexing off the request path (issue 14): appends schedule a background catch-up in short
// batches, a search indexes at most one short batch itself, and a quiet store schedules nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { SEARCH_CATCH_UP_SPAN } from "./search.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

const opened: { dir: string; store: Store }[] = [];
afterEach(() => {
  for (const { dir, store } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
function open(indexDelayMs: number): Store {
  const dir = mkdtempSync(join(tmpdir(), "iris-index-"));
  const store = openStore(join(dir, "state.db"), { indexDelayMs });
  opened.push({ dir, store });
  return store;
}
const note = (i: number) => ({ kind: "note" as const, text: `heron number ${i}` });

describe("the background search indexer", () => {
  it("indexes a backlog on its own, without a search", async () => {
    const store = open(10);
    const s = store.createSession({ source: "cli" });
    store.appendNodes(
      s.id,
      Array.from({ length: 5000 }, (_, i) => note(i)),
    );
    expect(store.searchIndexBacklog()).toBe(5000);
    const end = Date.now() + 10_000;
    while (store.searchIndexBacklog() > 0 && Date.now() < end) await sleep(20);
    expect(store.searchIndexBacklog()).toBe(0);
    expect(store.search("heron", { limit: 1000 })).toHaveLength(1000);
  });

  it("a search indexes at most one short batch itself", () => {
    const store = open(60_000); // the background indexer does not run during this test
    const s = store.createSession({ source: "cli" });
    store.appendNodes(
      s.id,
      Array.from({ length: 3 * SEARCH_CATCH_UP_SPAN }, (_, i) => note(i)),
    );
    store.search("heron");
    expect(store.searchIndexBacklog()).toBe(2 * SEARCH_CATCH_UP_SPAN);
  });

  it("a read-only store finds nodes the index has not reached yet, newest first, without writing", () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-index-"));
    const path = join(dir, "state.db");
    const writer = openStore(path, { indexDelayMs: 60_000 });
    const s = writer.createSession({ source: "cli" });
    writer.appendNodes(s.id, [note(1), note(2)]);
    writer.search("heron"); // indexes 1 and 2
    writer.appendNodes(s.id, [note(3), { kind: "note", text: "a heron in the reeds" }]);
    writer.close();
    const reader = openStore(path, { readonly: true });
    opened.push({ dir, store: reader });
    const hits = reader.search("heron");
    expect(hits.map((h) => h.snippet)).toEqual([
      "a [heron] in the reeds",
      "[heron] number 3",
      "[heron] number 2",
      "[heron] number 1",
    ]);
    expect(hits.slice(0, 2).map((h) => h.via)).toEqual(["like", "like"]);
    expect(reader.search("reeds", { limit: 1 })).toHaveLength(1);
    expect(reader.searchIndexBacklog()).toBe(2);
  });

  it("a read-only store's scan of short terms lists each node once", () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-index-"));
    const path = join(dir, "state.db");
    const writer = openStore(path, { indexDelayMs: 60_000 });
    const s = writer.createSession({ source: "cli" });
    writer.appendNodes(s.id, [{ kind: "note", text: "ok one" }]);
    writer.search("ok"); // indexes it
    writer.appendNodes(s.id, [{ kind: "note", text: "ok two" }]);
    writer.close();
    const reader = openStore(path, { readonly: true });
    opened.push({ dir, store: reader });
    expect(reader.search("tw").map((h) => h.nodeId)).toHaveLength(1);
    const both = reader.search("ok", { substring: true }).map((h) => h.nodeId);
    expect(both).toHaveLength(2);
    expect(new Set(both).size).toBe(2);
  });
});
