// Long conversations (issue 11): the built `iris` against the strict fake server (a 24K window
// per model, real context_length_exceeded answers), per api mode: two short turns, then a third
// turn of 150 tool rounds of 6 KB results (`seq`). Printed per mode:
//   compressions          "context compressed" events in the third turn
//   summary tokens        input + output tokens of the summary model's calls
//   peak request          the largest request the server counted, as a share of the window
//   over-window requests  requests the server answered 400 for the window (target 0)
//   sessions              sessions in state.db afterwards (a summary splits; pruning alone does not)
//   prefix share          common byte prefix of consecutive requests / bytes of the earlier one,
//                         over pairs with no compression between them: lowest and median (≥ 0.99)
// A compression between two requests is seen in the later one's pruned stubs or summary changing.
// Run: npm run build && npx tsx bench/long-conversation.ts [--rounds 150] [--window 24000]
//        [--mode chat_completions]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "../packages/store/src/index.js";
import {
  countTextTokens,
  type FakeLlm,
  type RecordedRequest,
  startFakeLlm,
} from "../packages/testkit/src/index.js";

const MODES = ["chat_completions", "responses", "anthropic_messages"] as const;
const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "iris", "bin", "iris.js");
const SUMMARY_MARK = "You compress the middle of a conversation";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

function run(args: string[], home: string, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: home },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

function script(fake: FakeLlm, rounds: number, answer: string): { summaryOutput: number } {
  let done = 0;
  const t = { summaryOutput: 0 };
  fake.setHandler((req) => {
    if (req.rawBody.toString("utf8").includes(SUMMARY_MARK)) {
      const text = `Summary: the agent listed number ranges with seq up to round ${done}; all fine.`;
      t.summaryOutput += countTextTokens(text);
      return { text };
    }
    if (done >= rounds) return { text: answer };
    done++;
    const start = 1_000_000 + done * 1_000 + rounds * 1_000_000;
    return {
      text: `Round ${done}.`,
      toolCalls: [{ name: "terminal", arguments: { command: `seq ${start} ${start + 750}` } }],
    };
  });
  return t;
}

function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** What a compression changes: the pruned stubs and the summary text. */
function compressionMark(req: RecordedRequest): string {
  const raw = req.rawBody.toString("utf8");
  const stubs = raw.split("[tool output pruned").length;
  const at = raw.indexOf("[Summary of the earlier conversation]");
  return `${stubs}:${at < 0 ? "" : raw.slice(at, at + 400)}`;
}

async function measure(mode: (typeof MODES)[number], rounds: number, window: number) {
  const fake = await startFakeLlm({ contextWindow: window });
  const home = mkdtempSync(join(tmpdir(), "iris-bench-long-"));
  try {
    writeFileSync(join(home, "config.yaml"), `model:\n  context_window: ${window}\n`);
    const route = [
      "--provider",
      "custom",
      "--base-url",
      fake.baseUrl,
      "--model",
      "fake-model",
      "--api-mode",
      mode,
    ];
    const args = [...route, "--max-rounds", "0"];
    script(fake, 1, "first done");
    await run(["-p", "Start listing ranges", ...args], home, home);
    script(fake, 1, "second done");
    await run(["-c", "-p", "continue", ...args], home, home);
    const from = fake.requests.length;
    const t = script(fake, rounds, "all ranges listed");
    const r = await run(["-c", "-p", `continue with ${rounds} more ranges`, ...args], home, home);
    const turn = fake.requests.slice(from);
    const summaries = turn.filter((q) => q.rawBody.toString("utf8").includes(SUMMARY_MARK));
    const calls = turn.filter((q) => !summaries.includes(q) && !q.rejected);
    const shares: number[] = [];
    for (let i = 1; i < calls.length; i++) {
      const a = calls[i - 1] as RecordedRequest;
      const b = calls[i] as RecordedRequest;
      if (compressionMark(a) !== compressionMark(b)) continue;
      shares.push(commonPrefix(a.rawBody, b.rawBody) / a.rawBody.length);
    }
    shares.sort((x, y) => x - y);
    const store = openStore(join(home, "state.db"), { readonly: true });
    const sessions = (await store.listSessions({ limit: 10_000 })).length;
    await store.close();
    const peak = Math.max(...calls.map((q) => q.inputTokens ?? 0));
    return {
      exit: r.code,
      compressions: (r.stderr.match(/context compressed, phase/g) ?? []).length,
      summaryCalls: summaries.length,
      summaryTokens: summaries.reduce((n, q) => n + (q.inputTokens ?? 0), 0) + t.summaryOutput,
      peakShare: peak / window,
      overWindow: fake.overWindow.length,
      minShare: shares[0] ?? 1,
      medianShare: shares[Math.floor(shares.length / 2)] ?? 1,
      pairs: shares.length,
      sessions,
    };
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const rounds = Number(arg("rounds", "150"));
const window = Number(arg("window", "24000"));
const only = arg("mode", "");
process.stdout.write(
  `long conversation: third turn of ${rounds} rounds × 6 KB results, ${window}-token window\n`,
);
for (const mode of MODES) {
  if (only && only !== mode) continue;
  const m = await measure(mode, rounds, window);
  process.stdout.write(
    `${mode.padEnd(19)} exit ${m.exit} · compressions ${m.compressions} · summary calls ${m.summaryCalls} ` +
      `(${m.summaryTokens.toLocaleString("en-US")} tokens) · peak request ${(100 * m.peakShare).toFixed(1)} % of the window · ` +
      `over-window ${m.overWindow} · sessions ${m.sessions} · prefix share between compressions: lowest ${m.minShare.toFixed(4)}, ` +
      `median ${m.medianShare.toFixed(4)} over ${m.pairs} pairs (target ≥ 0.99)\n`,
  );
}
