// `iris acp` as an editor starts it: a child process whose stdout is read line by line (every
// line must be a JSON-RPC message) and, through a tee, by the SDK's own client.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach } from "vitest";

export const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

export interface AcpChild {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line so far, raw. */
  lines: string[];
  stderr(): string;
  /** A stream for the SDK client (stdout teed). */
  stream(): acp.Stream;
  /** Sends one raw line to stdin. */
  send(line: string): void;
  /** Resolves with the first parsed stdout message matching `pred`. */
  next(pred: (msg: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Closes stdin and waits for the exit code. */
  end(): Promise<number | null>;
  /** Waits for the exit code, stdin left open. */
  exited(): Promise<number | null>;
}

export function spawnAcp(env: Record<string, string>, cwd: string, args: string[] = []): AcpChild {
  const child = spawn(process.execPath, [IRIS_BIN, "acp", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: {
    pred: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  let stderr = "";
  let partial = "";
  const tee = new PassThrough();
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on("data", (d: Buffer) => {
    tee.write(d);
    partial += d.toString("utf8");
    let nl = partial.indexOf("\n");
    while (nl >= 0) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      lines.push(line);
      let msg: Record<string, unknown> | undefined;
      try {
        msg = JSON.parse(line) as Record<string, unknown>;
      } catch {
        msg = undefined;
      }
      if (msg)
        for (const w of [...waiters])
          if (w.pred(msg)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(msg);
          }
      nl = partial.indexOf("\n");
    }
  });
  child.stdout.on("end", () => tee.end());
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => stderr,
    stream: () =>
      acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(tee) as ReadableStream<Uint8Array>),
    send: (line) => child.stdin.write(`${line}\n`),
    next: (pred) => new Promise((resolve) => waiters.push({ pred, resolve })),
    end: async () => {
      child.stdin.end();
      return exited;
    },
    exited: () => exited,
  };
}

/** Fails with the offending line when stdout carried anything but JSON-RPC 2.0 messages. */
export function assertOnlyJsonRpc(lines: readonly string[]): void {
  for (const line of lines) {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      throw new Error(`stdout carried a non-JSON line: ${JSON.stringify(line.slice(0, 200))}`);
    }
    if (!msg || typeof msg !== "object" || (msg as { jsonrpc?: unknown }).jsonrpc !== "2.0")
      throw new Error(`stdout carried a line that is not JSON-RPC 2.0: ${line.slice(0, 200)}`);
  }
}

export type RpcMessage = Record<string, unknown> & {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** Writes one request as raw NDJSON and resolves with its response. */
export async function rpc(agent: AcpChild, id: number, method: string, params: object): Promise<RpcMessage> {
  agent.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  return (await agent.next((m) => m.id === id)) as RpcMessage;
}

/** initialize (id 0) and session/new (id 1) as raw NDJSON: the new session's response. */
export async function handshake(agent: AcpChild, cwd: string): Promise<RpcMessage> {
  await rpc(agent, 0, "initialize", { protocolVersion: 1 });
  return rpc(agent, 1, "session/new", { cwd, mcpServers: [] });
}

/** A fake LLM server and a temp folder with an Iris home and a work folder, per test. */
export function spawnFixture(): { fake: () => FakeLlm; home: () => string; work: () => string } {
  let fake: FakeLlm | undefined;
  let dir: TempDir | undefined;
  beforeEach(async () => {
    fake = await startFakeLlm();
    dir = tempDir("iris-acp-spawn");
    mkdirSync(join(dir.path, "home"));
    mkdirSync(join(dir.path, "work"));
  });
  afterEach(async () => {
    await fake?.close();
    dir?.cleanup();
  });
  const must = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("spawnFixture used outside a test");
    return v;
  };
  return {
    fake: () => must(fake),
    home: () => join(must(dir).path, "home"),
    work: () => join(must(dir).path, "work"),
  };
}
