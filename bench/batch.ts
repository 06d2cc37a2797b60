// `iris batch` throughput (issue 18): 1,000 short items against the fake LLM server answering at
// once, at concurrency 1, 8 and 32, each run a fresh `iris batch` process (the built bundle).
// Figures:
//   items/s            items ÷ wall time of the whole process (start-up and summary included)
//   peak RSS           the batch process's maxRSS
//   per item (c=1)     wall time ÷ items at concurrency 1
//   iris -p            mean wall time of one `iris -p` process, run one after another
//   overhead           iris -p per call ÷ batch per item: what a shell loop of `iris -p` costs more
// Run: npx tsx bench/batch.ts [--items 1000] [--oneshot 20]   (after `npm run build`)
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeLlm, tempDir } from "../packages/testkit/src/index.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}
const ITEMS = arg("items", 1000);
const ONESHOT = arg("oneshot", 20);
const bin = fileURLToPath(new URL("../packages/iris/bin/iris.js", import.meta.url));

const fake = await startFakeLlm();
fake.setHandler(() => ({ text: "ok", usage: { input: 20, output: 2 } }));
const dir = tempDir("iris-bench-batch");
const route = [
  "--provider",
  "custom",
  "--base-url",
  fake.baseUrl,
  "--model",
  "fake-model",
  "--api-mode",
  "chat_completions",
];
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: dir.path };

/** Runs the bin (the bundle, after `npm run build`) with `args`; resolves its wall time and peak RSS (bytes). */
function runIris(args: string[]): Promise<{ ms: number; rss: number; code: number | null }> {
  // -e loader: the bin reads process.argv as when started itself, and maxRSS is reported at exit.
  const loader =
    'process.on("exit",()=>process.stderr.write("MAXRSS "+process.resourceUsage().maxRSS+"\\n"));' +
    `process.argv.splice(1,0,"iris");await import(${JSON.stringify(bin)});`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--input-type=module", "-e", loader, "--", ...args], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const kb = Number(/MAXRSS (\d+)/.exec(stderr)?.[1] ?? 0);
      if (code !== 0) process.stderr.write(stderr.slice(-2000));
      resolve({ ms: performance.now() - started, rss: kb * 1024, code });
    });
  });
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const input = join(dir.path, "in.jsonl");
writeFileSync(
  input,
  Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `i${i}`, prompt: `say ok ${i}` })).join("\n") +
    "\n",
);
process.stdout.write(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (2-core machine shared)\n`,
);
let perItemC1 = 0;
for (const c of [1, 8, 32]) {
  const out = join(dir.path, `out-c${c}.jsonl`);
  const r = await runIris(["batch", input, "--out", out, "--concurrency", String(c), ...route]);
  if (r.code !== 0) throw new Error(`iris batch exited ${r.code}`);
  if (c === 1) perItemC1 = r.ms / ITEMS;
  process.stdout.write(
    `batch  concurrency ${String(c).padStart(2)}  ${ITEMS} items  ${(r.ms / 1000).toFixed(1)} s  ` +
      `${((ITEMS * 1000) / r.ms).toFixed(1)} items/s  peak RSS ${mb(r.rss)}\n`,
  );
}
let oneshotMs = 0;
for (let i = 0; i < ONESHOT; i++) {
  const r = await runIris(["-p", `say ok ${i}`, ...route]);
  if (r.code !== 0) throw new Error(`iris -p exited ${r.code}`);
  oneshotMs += r.ms;
}
const perCall = oneshotMs / ONESHOT;
process.stdout.write(
  `iris -p loop  ${ONESHOT} calls  ${perCall.toFixed(0)} ms per call; batch at concurrency 1: ` +
    `${perItemC1.toFixed(1)} ms per item → a shell loop of iris -p costs ${(perCall / perItemC1).toFixed(1)}× per item\n`,
);
await fake.close();
dir.cleanup();
