// The WAL checkpointer thread: starts only after a lot of writing, copies the WAL into the
// database file on its own, loses nothing, and never keeps the process alive.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { Checkpointer } from "./checkpointer.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function round(i: number) {
  const text = `round ${i} `.repeat(120);
  return [
    { kind: "message" as const, message: { role: "user" as const, content: text } },
    {
      kind: "message" as const,
      message: { role: "tool" as const, callId: `c${i}`, toolName: "t", content: text, isError: false },
    },
  ];
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(20);
  }
}

describe("the WAL checkpointer", () => {
  it("starts after enough writing, checkpoints on its own, and loses nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-ckpt-"));
    dirs.push(dir);
    const path = join(dir, "state.db");
    let store: Store = openStore(path);
    const s = store.createSession({ source: "cli" });
    // A few rounds: a short run never starts a thread.
    for (let i = 0; i < 64; i++) store.appendNodes(s.id, round(i));
    expect(store.checkpointing).toBe("idle");

    let i = 64;
    while (store.checkpointing === "idle" && i < 5000) store.appendNodes(s.id, round(i++));
    expect(store.checkpointing).toBe("running");
    // SQLite's own checkpoint now waits for 8000 pages; the file grows before that only
    // because the worker copies the WAL into it.
    expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(8000);
    const before = statSync(path).size;
    for (let k = 0; k < 300; k++) store.appendNodes(s.id, round(i++));
    await until(() => statSync(path).size > before + 300 * 4096);

    const total = i * 2;
    store.close();
    expect(store.checkpointing).toBe("stopped");
    store = openStore(path);
    expect(store.activePath(s.id)).toHaveLength(total);
    expect(store.db.prepare("PRAGMA integrity_check").pluck(true).get()).toBe("ok");
    store.close();
  });

  it("sleeps while the WAL is quiet: a pass runs only after appends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-ckpt-"));
    dirs.push(dir);
    const store = openStore(join(dir, "state.db"));
    const s = store.createSession({ source: "cli" });
    const ckpt = new Checkpointer(store.db, { startBytes: 1 });
    for (let i = 0; i < 64; i++) {
      store.appendNodes(s.id, round(i));
      ckpt.afterAppend();
    }
    expect(ckpt.state).toBe("running");
    await until(() => ckpt.passes >= 1);
    await sleep(100);
    const quiet = ckpt.passes;
    // Nothing written: the worker is not woken, however long we wait.
    await sleep(300);
    expect(ckpt.passes).toBe(quiet);
    store.appendNodes(s.id, round(99));
    ckpt.afterAppend();
    await until(() => ckpt.passes === quiet + 1);
    ckpt.close();
    store.close();
  });

  it("a worker that cannot start never fails an append that committed", () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-ckpt-"));
    dirs.push(dir);
    const store = openStore(join(dir, "state.db"));
    const s = store.createSession({ source: "cli" });
    const ckpt = new Checkpointer(store.db, {
      startBytes: 1,
      spawn: () => {
        throw new Error("ERR_WORKER_INIT_FAILED");
      },
    });
    for (let i = 0; i < 64; i++) {
      store.appendNodes(s.id, round(i));
      expect(() => ckpt.afterAppend()).not.toThrow();
    }
    expect(ckpt.state).toBe("stopped");
    expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(store.activePath(s.id)).toHaveLength(128);
    store.close();
  });
});
