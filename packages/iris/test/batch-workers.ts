// The batch part of the multi-process check, shared by batch-queue.e2e.test.ts (on
// PostgreSQL and on Redis) and scale-out.e2e.test.ts: three `iris worker` processes (the real bin,
// each with its own profile and its own fake LLM server, sharing one batch.worker_dir) and a batch
// through `iris batch --queue`, with one worker SIGKILLed while one of its items waits for the
// model right after its tool ran.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type RecordedRequest, type Step, startFakeLlm } from "@iris/testkit";
import { expect } from "vitest";
import { tempHome } from "./helpers.js";
import { type Cleanups, type Proc, startIris, until } from "./processes.js";

type Msg = { role: string; content?: unknown };
const messagesOf = (r: RecordedRequest) => (r.body as { messages: Msg[] }).messages;
const text = (m: Msg | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
const keyOf = (r: RecordedRequest) =>
  /effect (item-\d+)/.exec(text(messagesOf(r).find((m) => m.role === "user")))?.[1] ?? "?";
const afterTool = (r: RecordedRequest) => messagesOf(r).at(-1)?.role === "tool";
// A call the killed worker recorded but never began is answered "not executed" on resume: the
// model (as a real one would) asks for it again.
const afterUnrunTool = (r: RecordedRequest) =>
  afterTool(r) && text(messagesOf(r).at(-1)).includes("not executed");

/**
 * Three `iris worker` processes on the queue at `url` and a batch of `items` through `iris batch
 * --queue`, one worker SIGKILLed mid-run; checks every item once, no effect twice, the killed
 * worker's item finished elsewhere from its log, and the two others stopping cleanly.
 */
export async function batchWithKilledWorker(
  backend: "postgres" | "redis",
  url: string,
  items: number,
  cleanups: Cleanups,
): Promise<void> {
  const root = tempHome();
  cleanups.push(root.cleanup);
  const shared = join(root.home, "worker-logs");
  const effects = join(root.home, "effects.txt");
  const keys = Array.from({ length: items }, (_, i) => `item-${String(i).padStart(3, "0")}`);
  const input = join(root.home, "in.jsonl");
  writeFileSync(input, keys.map((k) => `${JSON.stringify({ id: k, prompt: `effect ${k}` })}\n`).join(""));
  const urlEnv = backend === "postgres" ? "IRIS_DATABASE_URL" : "IRIS_REDIS_URL";
  const queueCfg = `queue:\n  backend: ${backend}\n  name: e2e-${process.pid}\n  lock_seconds: 4\n  stalled_check_seconds: 1\n`;
  const profile = (name: string, fake: FakeLlm, extra = ""): Record<string, string> => {
    const home = join(root.home, name);
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "config.yaml"),
      `providers:\n  fake: { base_url: "${fake.baseUrl}", api_mode: chat_completions }\n${queueCfg}${extra}`,
    );
    return { IRIS_HOME: home, [urlEnv]: url };
  };

  // One fake server per worker: a request tells which worker sent it.
  const fakes: FakeLlm[] = [];
  for (let i = 0; i < 3; i++) {
    const f = await startFakeLlm();
    cleanups.push(() => f.close());
    fakes.push(f);
  }
  const workers: Proc[] = [];
  let frozen: string | undefined;
  const killAfterToolResults = Math.floor(items / 10);
  let toolResultsOnFirst = 0;
  for (const [w, fake] of fakes.entries())
    fake.setHandler((req): Step => {
      const key = keyOf(req);
      if (!afterTool(req) || afterUnrunTool(req))
        return { toolCalls: [{ name: "terminal", arguments: { command: `echo ${key} >> '${effects}'` } }] };
      if (w === 0 && frozen === undefined && ++toolResultsOnFirst >= killAfterToolResults) {
        // The tool of `key` ran and its receipt is in the log: the worker dies waiting for the model.
        frozen = key;
        workers[0]?.child.kill("SIGKILL");
        return { fault: "stall" };
      }
      return { text: `done ${key}` };
    });
  const workerExtra = `batch:\n  approvals: allow\n  worker_dir: "${shared}"\n`;
  for (let i = 0; i < 3; i++)
    workers.push(
      startIris(
        ["worker", "--concurrency", "4"],
        profile(`worker-${i}`, fakes[i] as FakeLlm, workerExtra),
        cleanups,
      ),
    );
  await until(() => workers.every((w) => /running batch items/.test(w.stderr())), "the workers to start");

  const out = join(root.home, "out.jsonl");
  const producer = startIris(
    ["batch", input, "--out", out, "--queue", "--provider", "fake", "--model", "fake-model"],
    profile("producer", fakes[0] as FakeLlm),
    cleanups,
  );
  const done = await producer.exited;
  const diag = () =>
    `producer:\n${producer.stderr()}\n${workers.map((w, i) => `worker ${i}:\n${w.stderr()}`).join("\n")}`;
  expect(done.signal, diag()).toBeNull();
  expect((await workers[0]?.exited)?.signal).toBe("SIGKILL");

  // Every item exactly once in OUT. Completed, but for an item whose tool was running in the
  // killed worker (it may or may not have taken effect): that one ends uncertain, never run again.
  const rows = readFileSync(out, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { key: string; status: string; termination_reason: string });
  expect(rows.map((r) => r.key).sort()).toEqual(keys);
  const onKilled = new Set(fakes[0]?.requests.map(keyOf));
  const uncertain = rows.filter((r) => r.termination_reason === "effect_outcome_uncertain").map((r) => r.key);
  for (const k of uncertain) expect(onKilled.has(k), k).toBe(true);
  expect(
    rows.filter((r) => r.status !== "completed" && !uncertain.includes(r.key)),
    diag(),
  ).toEqual([]);
  // Exit 1 says some item failed: only an uncertain one may have.
  expect(done.code, diag()).toBe(uncertain.length ? 1 : 0);
  // No effect ran twice; every item's effect ran (an uncertain one at most once).
  const ran = existsSync(effects) ? readFileSync(effects, "utf8").split("\n").filter(Boolean) : [];
  expect(new Set(ran).size).toBe(ran.length);
  expect(keys.filter((k) => !ran.includes(k) && !uncertain.includes(k))).toEqual([]);
  // The frozen item went on elsewhere from its log: its first request there follows the tool result.
  expect(frozen).toBeDefined();
  const elsewhere = [...(fakes[1]?.requests ?? []), ...(fakes[2]?.requests ?? [])].filter(
    (r) => keyOf(r) === frozen,
  );
  expect(elsewhere.length).toBe(1);
  expect(afterTool(elsewhere[0] as RecordedRequest)).toBe(true);
  // The two live workers stop cleanly on SIGTERM.
  for (const w of workers.slice(1)) w.child.kill("SIGTERM");
  for (const w of workers.slice(1)) expect((await w.exited).code).toBe(0);
}
