// Start-up with MCP servers (issue 20, SPEC U8): IrisProcess.open → first request at the fake LLM
// server, with 0, 1 and 5 configured stdio servers (server-everything), and with one server that
// never answers its handshake (the first request must not wait longer than MCP_STARTUP_BOUND_MS).
// Figures: milliseconds, median of --runs runs (default 3) per case.
// Run: npx tsx bench/mcp-startup.ts [--runs 3]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { IrisProcess, loadProfile } from "../packages/host/src/index.js";
import { startFakeLlm, tempDir } from "../packages/testkit/src/index.js";
import { everythingStdio, MCP_STARTUP_BOUND_MS } from "../packages/tools/src/index.js";

const i = process.argv.indexOf("--runs");
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 3;
const fake = await startFakeLlm();
fake.setHandler(() => ({ text: "ok" }));

async function once(servers: Record<string, unknown>): Promise<{ ms: number; ready: number }> {
  const dir = tempDir("iris-bench-mcp");
  try {
    writeFileSync(join(dir.path, "config.yaml"), JSON.stringify({ mcp_servers: servers }));
    const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const before = fake.requests.length;
    const t0 = performance.now();
    const iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
    const session = iris.openSession({
      source: "bench",
      cwd: dir.path,
      route: { provider: "custom", model: "m", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
    });
    await session.startSession();
    await session.send("hi");
    const ms = performance.now() - t0;
    if (fake.requests.length === before) throw new Error("no request reached the fake server");
    const ready = iris.tools.mcp.status().filter((s) => s.state === "ready").length;
    await iris.close();
    return { ms, ready };
  } finally {
    dir.cleanup();
  }
}

const hanging = { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], timeout_s: 600 };
const cases: [string, Record<string, unknown>][] = [
  ["0 servers", {}],
  ["1 stdio server", { s0: everythingStdio() }],
  ["5 stdio servers", Object.fromEntries([0, 1, 2, 3, 4].map((n) => [`s${n}`, everythingStdio()]))],
  ["1 server that never answers", { slow: hanging }],
];
process.stdout.write(
  `start → first request (median of ${RUNS}; bound for slow servers ${MCP_STARTUP_BOUND_MS} ms)\n`,
);
for (const [label, servers] of cases) {
  const runs: { ms: number; ready: number }[] = [];
  for (let r = 0; r < RUNS; r++) runs.push(await once(servers));
  const sorted = runs.map((x) => x.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  process.stdout.write(
    `  ${label.padEnd(30)} ${median.toFixed(0).padStart(6)} ms  (servers ready: ${runs[0]?.ready ?? 0})\n`,
  );
}
await fake.close();
