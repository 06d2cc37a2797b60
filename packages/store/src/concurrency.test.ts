// SPEC D1 / issue item 7: real processes on one database file.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteEngine as openStore } from "./store.js";

const fixture = fileURLToPath(new URL("./fixtures/writer.mjs", import.meta.url));
const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");

let dir: string;
let dbPath: string;
const children: ChildProcessWithoutNullStreams[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  dbPath = join(dir, "state.db");
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Writer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when a line matching `test` arrives; rejects if the child exits first. */
  waitFor(test: (line: string) => boolean): Promise<string>;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

function startWriter(args: string[]): Writer {
  // tsx runs the fixture against the TypeScript sources of the store.
  const child = spawn(process.execPath, ["--import", "tsx", fixture, ...args], { cwd: repoRoot });
  children.push(child);
  let err = "";
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const lines: string[] = [];
  const waiters: { test: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) {
      if (w.test(line)) w.resolve(line);
      else waiters.push(w);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.on("exit", (code, signal) => res({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    stderr: () => err,
    waitFor: (test) =>
      new Promise<string>((res, rej) => {
        const seen = lines.find(test);
        if (seen !== undefined) return res(seen);
        waiters.push({ test, resolve: res });
        void exited.then(({ code }) =>
          rej(new Error(`writer exited (${code}) before the line; stderr: ${err}`)),
        );
      }),
  };
}

describe("one database, several processes", () => {
  it("two processes appending at once lose nothing; the second waits instead of failing", async () => {
    const store = openStore(dbPath);
    const session = store.createSession({ source: "test" });
    const perWriter = 150;
    const a = startWriter(["append", dbPath, session.id, String(perWriter)]);
    const b = startWriter(["append", dbPath, session.id, String(perWriter)]);
    await Promise.all([a.waitFor((l) => l === "ready"), b.waitFor((l) => l === "ready")]);
    // Hold the write lock while they start, so both must wait on the busy timeout at first.
    store.db.exec("BEGIN IMMEDIATE");
    store.appendNode(session.id, { kind: "note", text: "written under the held lock" });
    a.child.stdin.write("go\n");
    b.child.stdin.write("go\n");
    await delay(300);
    store.db.exec("COMMIT");
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    expect([ea.code, a.stderr()]).toEqual([0, ""]);
    expect([eb.code, b.stderr()]).toEqual([0, ""]);

    const ids = [...a.lines, ...b.lines].filter((l) => l.startsWith("id ")).map((l) => l.slice(3));
    expect(ids).toHaveLength(2 * perWriter);
    expect(a.lines.filter((l) => l.startsWith("id "))).toHaveLength(perWriter);
    // Both appended after the active leaf under the write lock: one unbroken chain.
    const path = store.activePath(session.id);
    expect(path).toHaveLength(2 * perWriter + 1);
    expect(path[0]?.text).toBe("written under the held lock");
    expect(new Set(path.slice(1).map((n) => n.id))).toEqual(new Set(ids));
    expect(store.listBranches(session.id)).toHaveLength(1);
    // What the other processes appended is searchable here: the search catches the index up.
    expect(store.search("message 149", { limit: 10 })).toHaveLength(2);
    store.close();
  }, 60_000);

  it("a process killed in the middle of writing leaves a sound database with every committed node", async () => {
    const setup = openStore(dbPath);
    const session = setup.createSession({ source: "test" });
    setup.close();

    const w = startWriter(["loop", dbPath, session.id]);
    await w.waitFor((l) => l.startsWith("committed ") && w.lines.length >= 60);
    w.child.kill("SIGKILL");
    const exit = await w.exited;
    expect(exit.signal).toBe("SIGKILL");

    const committed = w.lines
      .filter((l) => l.startsWith("committed "))
      .flatMap((l) => l.slice(10).split(" "));
    expect(committed.length).toBeGreaterThanOrEqual(240);

    const store = openStore(dbPath);
    expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
    for (const t of ["nodes_fts", "nodes_fts_trigram"]) {
      expect(() => store.db.prepare(`INSERT INTO ${t}(${t}) VALUES ('integrity-check')`).run()).not.toThrow();
    }
    const stored = new Set(store.activePath(session.id).map((n) => n.id));
    const missing = committed.filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    // Whole rounds only: the path length is a multiple of the round size.
    expect(stored.size % 4).toBe(0);
    // And the database is writable again.
    store.appendNode(session.id, { kind: "note", text: "after the crash" });
    store.close();
  }, 60_000);
});
