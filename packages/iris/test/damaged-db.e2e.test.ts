// A damaged state.db (a page of the sessions table overwritten) as a user meets it: a command
// names the file and the way out, `iris doctor` says it is damaged, `iris doctor --repair` keeps a
// copy of the file as it was and recovers every row it can read; the sessions list works again.
import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, type TempHome, tempHome } from "./helpers.js";

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());
const env = () => ({ IRIS_HOME: home.home });

interface RawDb {
  prepare(sql: string): { all(): { pageno: number }[]; get(): { page_size: number } };
  close(): void;
}
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (p: string) => RawDb;

/** 300 sessions with a message each, then one leaf page of the sessions table overwritten. */
async function damagedDb(path: string): Promise<void> {
  const store = openStore(path);
  for (let i = 0; i < 300; i++) {
    const s = await store.createSession({ source: "cli", title: `session ${i} ${"x".repeat(150)}` });
    await store.appendNode(s.id, { kind: "message", message: { role: "user", content: `hello ${i}` } });
  }
  await store.close();
  // That much writing starts the WAL checkpointer thread; its connection closes a moment after
  // the store's, and the last connection to close copies the WAL into the file. Overwriting a
  // page before then would be undone by that copy, so wait for the WAL to go.
  for (let i = 0; i < 500 && existsSync(`${path}-wal`); i++) await new Promise((r) => setTimeout(r, 20));
  const db = new Sqlite(path);
  const pageSize = db.prepare("PRAGMA page_size").get().page_size;
  const leaves = db
    .prepare("SELECT pageno FROM dbstat WHERE name = 'sessions' AND pagetype = 'leaf' ORDER BY pageno")
    .all();
  db.close();
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, ((leaves[3]?.pageno ?? 3) - 1) * pageSize);
  closeSync(fd);
}

describe("a damaged state.db", () => {
  it("is named with the way out, and doctor --repair keeps a copy and recovers the rest", async () => {
    const db = join(home.home, "state.db");
    await damagedDb(db);
    const damagedBytes = readFileSync(db);
    const list = await runIris(["sessions", "list", "--limit", "1000"], { env: env() });
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain(`${db} is damaged`);
    expect(list.stderr).toContain("iris doctor --repair");
    const doctor = await runIris(["doctor", "--offline"], { env: env() });
    expect(doctor.stdout).toMatch(/✗ stored history: .*state\.db is damaged/);
    const repair = await runIris(["doctor", "--offline", "--repair"], { env: env() });
    const kept = /kept as (\S+?)(;|\s|$)/.exec(repair.stdout)?.[1] ?? "";
    expect(repair.stdout).toMatch(/recovered \d+ rows \((\d+) sessions/);
    expect(existsSync(kept)).toBe(true);
    expect(readFileSync(kept).equals(damagedBytes)).toBe(true);
    const sessions = Number(/\((\d+) sessions/.exec(repair.stdout)?.[1]);
    expect(sessions).toBeGreaterThan(200);
    expect(sessions).toBeLessThan(300);
    const again = await runIris(["sessions", "list", "--limit", "1000"], { env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("session 0 ");
  });
});
