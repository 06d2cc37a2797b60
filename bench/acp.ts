// `iris acp` as an editor sees it (issue 16): spawn → the initialize response, and session/prompt
// → the first agent_message_chunk, against the fake LLM server answering instantly. Raw NDJSON on
// the child's stdio (no client library in the measurement). Medians over repeated runs.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startFakeLlm } from "../packages/testkit/src/index.js";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "iris", "bin", "iris.js");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 10;

type Msg = {
  id?: number;
  method?: string;
  result?: { sessionId?: string };
  params?: { update?: { sessionUpdate?: string } };
};

async function once(baseUrl: string): Promise<{ init: number; firstChunk: number }> {
  const dir = mkdtempSync(join(tmpdir(), "iris-bench-acp-"));
  const home = join(dir, "home");
  mkdirSync(home);
  writeFileSync(
    join(home, "config.yaml"),
    `model: {provider: custom, name: fake-model}\nproviders: {custom: {base_url: '${baseUrl}'}}\n`,
  );
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "acp"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, IRIS_HOME: home },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let buf = "";
  const waiters: { pred: (m: Msg) => boolean; resolve: (t: number) => void; msg?: (m: Msg) => void }[] = [];
  let sessionId = "";
  child.stdout.on("data", (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const m = JSON.parse(buf.slice(0, nl)) as Msg;
      buf = buf.slice(nl + 1);
      const now = performance.now();
      for (const w of [...waiters])
        if (w.pred(m)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.msg?.(m);
          w.resolve(now);
        }
    }
  });
  const until = (pred: (m: Msg) => boolean, msg?: (m: Msg) => void) =>
    new Promise<number>((resolve) => waiters.push({ pred, resolve, ...(msg ? { msg } : {}) }));
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: 1, clientCapabilities: {} },
  });
  const initAt = await until((m) => m.id === 0);
  send({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: dir, mcpServers: [] } });
  await until(
    (m) => m.id === 1,
    (m) => {
      sessionId = m.result?.sessionId ?? "";
    },
  );
  const promptAt = performance.now();
  send({
    jsonrpc: "2.0",
    id: 2,
    method: "session/prompt",
    params: { sessionId, prompt: [{ type: "text", text: "hi" }] },
  });
  const chunkAt = await until(
    (m) => m.method === "session/update" && m.params?.update?.sessionUpdate === "agent_message_chunk",
  );
  await until((m) => m.id === 2);
  child.stdin.end();
  await new Promise((r) => child.on("close", r));
  rmSync(dir, { recursive: true, force: true });
  return { init: initAt - started, firstChunk: chunkAt - promptAt };
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)] ?? 0;
  return `median ${med.toFixed(1)} ms (min ${(s[0] ?? 0).toFixed(1)}, max ${(s.at(-1) ?? 0).toFixed(1)}, ${s.length} runs)`;
}

const fake = await startFakeLlm();
fake.setHandler(() => ({ text: "hello from the fake model" }));
try {
  process.stdout.write(
    `acp bench: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  await once(fake.baseUrl); // warm-up: disk caches, the bundle's first parse
  const init: number[] = [];
  const chunk: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await once(fake.baseUrl);
    init.push(r.init);
    chunk.push(r.firstChunk);
  }
  process.stdout.write(`spawn → initialize response:                ${stats(init)}\n`);
  process.stdout.write(`session/prompt → first agent_message_chunk: ${stats(chunk)}\n`);
  if (fake.violations.length)
    throw new Error(`the fake server rejected ${fake.violations.length} request(s)`);
} finally {
  await fake.close();
}
