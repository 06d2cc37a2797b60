// One page of a source's sessions (ACP's session/list): the source, folder and end-reason
// filters, the order and the offset are all applied by the query, on a real SQLite file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { openSqliteEngine as openStore } from "./store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it("pages one source's sessions newest first, by folder, leaving out one end reason", () => {
  const dir = mkdtempSync(join(tmpdir(), "iris-page-"));
  dirs.push(dir);
  const store = openStore(join(dir, "state.db"));
  try {
    const ids = [1, 2, 3, 4, 5].map(
      (n) => store.createSession({ source: "acp", cwd: n === 3 ? "/b" : "/a" }).id,
    );
    store.createSession({ source: "cli", cwd: "/a" });
    store.endSession(ids[1] as string, "compressed");
    store.endSession(ids[3] as string, "user");
    const page = (o: { cwd?: string; offset: number; limit: number }) =>
      store.sessionPage({ source: "acp", notEndedBy: "compressed", ...o }).map((r) => r.id);
    // Newest first: 5, 4 (ended otherwise: kept), 3 (other folder), 1; 2 ended by compression.
    expect(page({ offset: 0, limit: 10 })).toEqual([ids[4], ids[3], ids[2], ids[0]]);
    expect(page({ cwd: "/a", offset: 0, limit: 2 })).toEqual([ids[4], ids[3]]);
    expect(page({ cwd: "/a", offset: 2, limit: 2 })).toEqual([ids[0]]);
    expect(page({ cwd: "/c", offset: 0, limit: 2 })).toEqual([]);
    expect(store.sessionPage({ source: "acp", offset: 0, limit: 10 })).toHaveLength(5);
  } finally {
    store.close();
  }
});
