import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireLock, isAlive, LockHeldError, readLock, stopOwner, tokenLockPath } from "./lock.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A real process that stays until killed; `ignoreTerm` makes it ignore SIGTERM. */
async function idle(ignoreTerm = false) {
  const code = `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ""} console.log('up'); setInterval(() => {}, 1 << 30)`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { pid: child.pid ?? 0, exited, kill: () => child.kill("SIGKILL") };
}

describe("acquireLock", () => {
  it("refuses while a live owner holds it, naming the pid; takes a stale one over", async () => {
    const path = join(dir, "gateway.pid");
    const other = await idle();
    writeFileSync(path, JSON.stringify({ pid: other.pid, started: 1 }));
    await expect(acquireLock(path, { what: "the gateway" })).rejects.toThrow(
      new RegExp(`already running \\(pid ${other.pid}`),
    );
    await expect(acquireLock(path, { what: "x" })).rejects.toBeInstanceOf(LockHeldError);
    other.kill();
    await other.exited;
    const release = await acquireLock(path, { what: "the gateway" });
    expect(readLock(path)?.pid).toBe(process.pid);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it("--replace stops the owner and takes over", async () => {
    const path = join(dir, "gateway.pid");
    const other = await idle();
    writeFileSync(path, JSON.stringify({ pid: other.pid, started: 1 }));
    const release = await acquireLock(path, { what: "the gateway", replace: true });
    expect(isAlive(other.pid)).toBe(false);
    expect(readLock(path)?.pid).toBe(process.pid);
    release();
  });

  it("an owner that ignores SIGTERM is killed when the bound runs out", async () => {
    const stubborn = await idle(true);
    await stopOwner(stubborn.pid, 300);
    await stubborn.exited;
    expect(isAlive(stubborn.pid)).toBe(false);
  });

  it("bot-token locks are named by a hash, never by the token", () => {
    const env = { IRIS_LOCK_DIR: join(dir, "locks") };
    const p = tokenLockPath("telegram:123456:SECRET-token", env);
    expect(p).not.toContain("SECRET");
    expect(tokenLockPath("telegram:123456:SECRET-token", env)).toBe(p);
  });
});
