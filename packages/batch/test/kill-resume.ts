// Kill -9 and --resume, as a user's machine does it (SPEC D4, E4): `iris batch` (the built bin)
// runs items whose one tool call appends the item's key to a file; at chosen points the run is
// killed with SIGKILL — while an item waits for its model, or inside the tool right after its
// effect — and started again with --resume until it finishes. Shared by the e2e test (a few kills)
// and bench/batch-kill-soak.ts (200 items, ten kills).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FakeLlm, RecordedRequest, Step } from "@iris/testkit";
import type { TrajectoryRow } from "../src/trajectory.js";
import { messagesOf, promptOf, readRows, textOf } from "./helpers.js";

export const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

/** Where a kill lands: on the model request numbered `at` (1-based, counted over all runs). */
export interface KillPoint {
  at: number;
  /** `model`: the run dies while that request waits; `tool`: the request's tool call kills it after its effect. */
  mode: "model" | "tool";
}

export interface KillRunResult {
  rows: TrajectoryRow[];
  /** The keys the tool appended, one per line, in the order the effects ran. */
  effects: string[];
  keys: string[];
  runs: number;
  killsDone: number;
  lastExit: number | null;
  stderr: string;
}

/** `at` values spread evenly over about `items * 2` requests, alternating the two modes. */
export function spreadKills(items: number, kills: number): KillPoint[] {
  const total = items * 2;
  return Array.from({ length: kills }, (_, k) => ({
    at: Math.max(1, Math.floor(((k + 1) * total) / (kills + 1))),
    mode: k % 2 === 0 ? "tool" : "model",
  }));
}

function runOnce(args: string[], env: NodeJS.ProcessEnv, onPid: (pid: number) => void) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [IRIS_BIN, "batch", ...args], {
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      if (child.pid !== undefined) onPid(child.pid);
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stderr }));
    },
  );
}

export async function killAndResume(opts: {
  fake: FakeLlm;
  dir: string;
  items: number;
  kills: KillPoint[];
  concurrency: number;
}): Promise<KillRunResult> {
  const { fake, dir } = opts;
  const effectsFile = join(dir, "effects.txt");
  const keys = Array.from({ length: opts.items }, (_, i) => `item-${i + 1}`);
  const input = join(dir, "in.jsonl");
  writeFileSync(input, keys.map((k) => `${JSON.stringify({ id: k, prompt: `effect ${k}` })}\n`).join(""));
  // The profile has its own folder: a command naming the profile folder (the effects file, were it
  // there) is Iris's own state, asked about in every mode.
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.yaml"), "batch:\n  approvals: allow\n");
  const out = join(dir, "out.jsonl");
  const pending = [...opts.kills].sort((a, b) => a.at - b.at);
  let pid = 0;
  let seen = 0;
  let killsDone = 0;
  fake.setHandler((req: RecordedRequest): Step => {
    seen += 1;
    const key = promptOf(req).replace(/^effect /, "");
    const last = messagesOf(req).at(-1);
    const due = pending[0] && pending[0].at <= seen ? pending[0] : undefined;
    // A tool kill waits for the next request that gets a tool call.
    const kill = due && (due.mode === "model" || last?.role !== "tool") ? pending.shift() : undefined;
    if (kill?.mode === "model") {
      killsDone += 1;
      process.kill(pid, "SIGKILL");
      return { fault: "stall" };
    }
    if (last?.role === "tool") return { text: `done ${key}: ${textOf(last).slice(0, 40)}` };
    let command = `echo ${key} >> '${effectsFile}'`;
    if (kill?.mode === "tool") {
      killsDone += 1;
      command += `; kill -9 ${pid}`;
    }
    return { toolCalls: [{ name: "terminal", arguments: { command } }] };
  });
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: home };
  const route = ["--provider", "custom", "--base-url", fake.baseUrl, "--model", "fake-model"];
  const common = [input, "--out", out, ...route, "--api-mode", "chat_completions"];
  let runs = 0;
  let last: Awaited<ReturnType<typeof runOnce>> | undefined;
  let stderr = "";
  // Each kill costs one run; a few more runs than kills means resume itself is stuck.
  while (runs < opts.kills.length + 3) {
    const args = [...common, "--concurrency", String(opts.concurrency), ...(runs > 0 ? ["--resume"] : [])];
    runs += 1;
    last = await runOnce(args, env, (p) => {
      pid = p;
    });
    stderr += `--- run ${runs}: ${last.signal ?? last.code}\n${last.stderr}`;
    if (last.signal !== "SIGKILL") break;
  }
  const effects = existsSync(effectsFile)
    ? readFileSync(effectsFile, "utf8").split("\n").filter(Boolean)
    : [];
  return { rows: readRows(out), effects, keys, runs, killsDone, lastExit: last?.code ?? null, stderr };
}

/** How often each key occurs in `list`. */
export function counts(list: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of list) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}
