// A throw-away Redis server for tests and benches: Debian's redis-server on a free loopback
// port, its files in a temp folder (append-only file on, so a restart keeps the data), no
// snapshots. `stop()` and `start()` take it down and up again on the same port.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, skipUnlessInstalled, waitListening } from "./net.js";

const REDIS = "redis-server";

export function redisInstalled(): boolean {
  return spawnSync(REDIS, ["--version"], { stdio: "ignore" }).status === 0;
}

export function skipWithoutRedis(): boolean {
  return skipUnlessInstalled(
    redisInstalled(),
    "redis-server is not installed: these tests start a throw-away server (apt-get install -y redis-server; .ci/run does)",
  );
}

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:PORT */
  url: string;
  /** Kills the server (SIGKILL: as if it crashed); the append-only file keeps what was written. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "iris-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = "";
  const start = async () => {
    log = "";
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""];
    args.push("--appendonly", "yes", "--appendfsync", "no", "--daemonize", "no", "--protected-mode", "no");
    const c = spawn(REDIS, args, { stdio: ["ignore", "pipe", "pipe"] });
    const keep = (b: Buffer) => {
      log = (log + b.toString("utf8")).slice(-4000);
    };
    c.stdout?.on("data", keep);
    c.stderr?.on("data", keep);
    child = c;
    await waitListening(port, "redis-server", () => (c.exitCode !== null ? log : undefined));
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGKILL");
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
