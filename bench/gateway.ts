// The gateway under a long load: 10,000 messages from 50 users (DMs and 5 group
// channels where they mention the bot) through the real runner, store and agent, against the
// fake LLM server answering instantly, on an in-memory platform: the gateway alone, without IRC
// (bench/gateway-irc-soak.ts runs the same load over IRC, with a SIGKILL).
// Each wave sends one message to every chat at once and waits for all replies. Figures:
//   messages / s            messages answered / wall time
//   latency p50 / p99       handle() → the reply's send, per message: the gateway, the agent, the
//                           store and one HTTP round trip to an instant model
//   RSS                     sampled every 1,000 messages after a GC; the slope of a least-squares
//                           line through the samples (flat: ≈ 0 KB per 1,000 messages)
//   duplicates / lost       replies sent twice for one message; messages never settled
// Conversations: every chat sends /new every 20 of its messages (--new-every; 0: never), as chats
// do, so a conversation's history (sent whole with every request; compression is off) stays
// short. Without it the requests grow all run long, and V8's heap (heapTotal) grows with them.
// Run: npx tsx bench/gateway.ts [--messages 10000] [--every 1000] [--new-every 20] [--verbose]
// Over the chat platforms' fakes instead (the built bin, with a SIGKILL): --platform, see
// bench/gateway-platforms.ts.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Gateway } from "../packages/gateway/src/index.js";
import { openGatewayTables } from "../packages/gateway/src/state/index.js";
import { MemoryAdapter, message } from "../packages/gateway/test/memory-adapter.js";
import { IrisProcess, loadProfile } from "../packages/host/src/index.js";
import { getLogger } from "../packages/llm/src/index.js";

import { type RecordedRequest, startFakeLlm, tempDir } from "../packages/testkit/src/index.js";
import { slope } from "./slope.js";

if (process.argv.includes("--platform")) {
  await import("./gateway-platforms.js");
  process.exit();
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(r.status ?? 1);
}
const i = process.argv.indexOf("--messages");
const MESSAGES = i >= 0 ? Number(process.argv[i + 1]) : 10_000;
const USERS = 50;
const o = process.argv.indexOf("--open");
/** Sessions kept open in memory (the gateway's cap); fewer than the 55 chats forces resumes. */
const OPEN = o >= 0 ? Number(process.argv[o + 1]) : 100;
const e = process.argv.indexOf("--every");
/** Messages between two memory samples. */
const EVERY = e >= 0 ? Number(process.argv[e + 1]) : 1000;
const verbose = process.argv.includes("--verbose");
const w = process.argv.indexOf("--new-every");
/** Each chat starts a new conversation (`/new`) every this many of its messages (0: never). */
const NEW_EVERY = w >= 0 ? Number(process.argv[w + 1]) : 20;

type ChatMessage = { role: string; content?: unknown };
const fake = await startFakeLlm();
fake.setHandler((req: RecordedRequest) => {
  const ms = (req.body as { messages: ChatMessage[] }).messages;
  const last = ms.filter((m) => m.role === "user").at(-1)?.content;
  const token = /#(\d+)#/.exec(typeof last === "string" ? last : JSON.stringify(last))?.[1] ?? "?";
  return { text: `reply #${token}#` };
});
// The fake keeps every request; a 10,000-message run would otherwise measure the fake's heap.
const requests = fake.requests;
const dir = tempDir("iris-bench-gateway");
writeFileSync(
  join(dir.path, "config.yaml"),
  `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}"}}\n` +
    "compression: {enabled: false}\ngateway:\n  allow_all: true\n  busy_policy: queue\n",
);
const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
const iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
const adapter = new MemoryAdapter();
// Per message, indexed by its number (typed arrays: the bench's own bookkeeping stays off the heap).
const sentAt = new Float64Array(MESSAGES).fill(Number.NaN);
const origSend = adapter.send.bind(adapter);
adapter.send = async (to, text) => {
  const token = /#(\d+)#/.exec(text)?.[1];
  if (token) {
    if (!Number.isNaN(sentAt[Number(token)] ?? 0)) duplicates++;
    sentAt[Number(token)] = performance.now();
  }
  return origSend(to, text);
};
let duplicates = 0;
const gateway = new Gateway({
  iris,
  tables: await openGatewayTables(iris),
  adapters: [adapter],
  config: profile.config.gateway,
  cwd: dir.path,
  logger: getLogger(),
  maxOpenChats: OPEN,
});
await gateway.start();

const chats = [
  ...Array.from({ length: USERS }, (_, u) => ({ dm: true, chat: `user${u}` })),
  ...Array.from({ length: 5 }, (_, g) => ({ dm: false, chat: `#group${g}` })),
];
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const startedAt = new Float64Array(MESSAGES);
const rss: number[] = [];
const heap: number[] = [];
const heapTotal: number[] = [];
const t0 = performance.now();
let n = 0;
let waves = 0;
while (n < MESSAGES) {
  if (NEW_EVERY > 0 && ++waves % NEW_EVERY === 0)
    await Promise.all(
      chats.map((chat) =>
        gateway.handle(
          message({
            chatType: chat.dm ? "dm" : "group",
            chatId: chat.chat,
            userId: chat.dm ? chat.chat : "user0",
            userName: chat.dm ? chat.chat : "user0",
            text: `${chat.dm ? "" : "bot: "}/new`,
          }),
        ),
      ),
    );
  const wave: Promise<unknown>[] = [];
  for (const [c, chat] of chats.entries()) {
    if (n >= MESSAGES) break;
    const token = String(n++);
    const user = chat.dm ? chat.chat : `user${(n + c) % USERS}`;
    startedAt[n - 1] = performance.now();
    wave.push(
      gateway.handle(
        message({
          chatType: chat.dm ? "dm" : "group",
          chatId: chat.chat,
          userId: user,
          userName: user,
          text: `${chat.dm ? "" : "bot: "}question #${token}#`,
        }),
      ),
    );
    if (n % EVERY === 0) {
      await Promise.all(wave);
      await gateway.settled();
      requests.length = 0;
      adapter.sent.length = 0;
      gc?.();
      const m = process.memoryUsage();
      rss.push(m.rss);
      heap.push(m.heapUsed);
      heapTotal.push(m.heapTotal);
      if (verbose)
        console.error(
          `${n}\trss ${mb(m.rss)}\theap ${mb(m.heapUsed)}/${mb(m.heapTotal)}\texternal ${mb(m.external)}\tarrayBuffers ${mb(m.arrayBuffers)}`,
        );
    }
  }
  await Promise.all(wave);
  await gateway.settled();
}
const wall = (performance.now() - t0) / 1000;
const latencies = [...startedAt].map((s, t) => (sentAt[t] ?? Number.NaN) - s).sort((a, b) => a - b);
const answered = latencies.filter((l) => !Number.isNaN(l)).length;
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const unsettled = (await gateway.state.unansweredInbound("mem")).length;
// Least-squares slope of RSS over the samples, per 1,000 messages (the samples' x is messages).
const rssSlope = slope(rss.map((y, k) => [(k + 1) * EVERY, y] as const)) * 1000;
console.log(`messages               ${MESSAGES} from ${USERS} users in ${chats.length} chats`);
console.log(`messages / s           ${(answered / wall).toFixed(0)}`);
console.log(`latency p50 / p99      ${pct(50).toFixed(1)} ms / ${pct(99).toFixed(1)} ms`);
console.log(`RSS samples (MB)       ${rss.map(mb).join(" ")}`);
console.log(`heap used (MB)         ${heap.map(mb).join(" ")}`);
console.log(`heap total (MB)        ${heapTotal.map(mb).join(" ")}`);
console.log(`RSS slope              ${(rssSlope / 1024).toFixed(1)} KB per 1,000 messages`);
console.log(
  `duplicates / lost      ${duplicates} / ${MESSAGES - answered} (unsettled in store: ${unsettled})`,
);
await gateway.stop();
await iris.close();
await fake.close();
dir.cleanup();
