// The gateway soak over IRC (issue 19 "How it will be checked"): `iris gateway run` (the built
// bin, as a user runs it) on a real ngircd, 50 users who each DM the bot, waiting for each answer
// before the next question, against the fake LLM server answering instantly. Halfway through the
// gateway is SIGKILLed and started again. ngircd's flood limits are lifted (MaxPenaltyTime = 0,
// user mode F for every client, no cap on connections per IP): with the defaults one connection
// carries about 3 lines/s, which would hold 10,000 messages for an hour.
// Figures:
//   messages / s          answers received / wall time (the restart included)
//   latency p50 / p99     question sent → answer received, over IRC, with an instant model: what the
//                         gateway, the agent, the store and ngircd add
//   duplicates            answers received twice for one question (must be 0)
//   lost                  questions never answered nor reported (must be 0); questions the killed
//                         process had not read from its socket when it died cannot be known to
//                         anyone but the user: they are counted apart and asked again
//   RSS                   the gateway's resident size sampled every 500 answers; the slope of a
//                         least-squares line per process, after its first 1,000 answers (warm-up)
// Run: npx tsx bench/gateway-irc-soak.ts [--messages 10000] [--users 50] [--kill-at 0.5]
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TestIrcClient } from "../packages/gateway/test/irc-client.js";
import { startNgircd } from "../packages/gateway/test/ngircd.js";
import { type RecordedRequest, startFakeLlm, tempDir } from "../packages/testkit/src/index.js";
import { slope } from "./slope.js";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const MESSAGES = arg("--messages", 10_000);
const USERS = arg("--users", 50);
const KILL_AT = Math.floor(MESSAGES * arg("--kill-at", 0.5));
const BOT = "irisbot";
const IRIS_BIN = join(import.meta.dirname, "..", "packages", "iris", "bin", "iris.js");

type ChatMessage = { role: string; content?: unknown };
const fake = await startFakeLlm();
fake.setHandler((req: RecordedRequest) => {
  const ms = (req.body as { messages: ChatMessage[] }).messages;
  const last = ms.filter((m) => m.role === "user").at(-1)?.content;
  const token = /#(\d+)#/.exec(typeof last === "string" ? last : JSON.stringify(last))?.[1] ?? "?";
  return { text: `reply #${token}#` };
});
const ircd = await startNgircd([], undefined, { unthrottled: true });
const dir = tempDir("iris-bench-soak");
writeFileSync(
  join(dir.path, "config.yaml"),
  [
    "model: {provider: fake, name: fake-model}",
    `providers: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
    "compression: {enabled: false}",
    "gateway:",
    "  allow_all: true",
    "  busy_policy: queue",
    "  platforms:",
    `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: []}`,
    "",
  ].join("\n"),
);
const env = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  IRIS_HOME: dir.path,
  IRIS_LOCK_DIR: join(dir.path, "locks"),
  ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
};

interface Gateway {
  child: ChildProcess;
  up: Promise<void>;
}
function startGateway(): Gateway {
  const child = spawn(process.execPath, [IRIS_BIN, "gateway", "run"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
    cwd: dir.path,
  });
  let err = "";
  const up = new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", (d) => {
      err += d;
      if (err.includes("iris gateway: running")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`gateway exited (${code}): ${err}`)));
  });
  up.catch(() => {});
  return { child, up };
}
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

let gateway = startGateway();
await gateway.up;
const users = await Promise.all(
  Array.from({ length: USERS }, (_, u) => TestIrcClient.connect(ircd.port, `user${u}`)),
);
// The bot must be registered before the first DM (ngircd answers 401 to a nick not there yet).
await new Promise((r) => setTimeout(r, 1500));

const sentAt = new Map<string, number>();
const answers = new Map<string, number>();
const latencies: number[] = [];
let duplicates = 0;
let reported = 0;
let resent = 0;
let sent = 0;
let answered = 0;
let killed = false;
const samples: { proc: number; answered: number; rss: number }[] = [];
let proc = 0;
const t0 = performance.now();

let ready: Promise<void> = Promise.resolve();
async function killAndRestart(): Promise<void> {
  killed = true;
  const old = gateway.child;
  const exited = new Promise((r) => old.once("exit", r));
  old.kill("SIGKILL");
  await exited;
  gateway = startGateway();
  proc++;
  await gateway.up;
}

/** Each user: ask, wait for the answer (or the restart notice), ask again. */
async function runUser(c: TestIrcClient): Promise<void> {
  while (sent < MESSAGES) {
    await ready;
    const token = String(sent++);
    const beforeKill = !killed;
    const asked = performance.now();
    sentAt.set(token, asked);
    c.say(BOT, `question #${token}#`);
    if (!killed && sent >= KILL_AT) ready = killAndRestart();
    let again = false;
    for (;;) {
      const line = await c
        .waitFor((l) => l.command === "PRIVMSG" && l.nick === BOT, 90_000)
        .catch(() => undefined);
      if (!line) {
        // Neither answered nor told: a question the killed process never read from its socket.
        // Only the user can know; they ask again once. Anything else unanswered is lost.
        if (beforeKill && killed && !again) {
          again = true;
          resent++;
          await ready;
          c.say(BOT, `question #${token}#`);
          continue;
        }
        break;
      }
      if (line.text.includes("was not answered")) {
        reported++;
        break;
      }
      const got = /reply #(\d+)#/.exec(line.text)?.[1];
      if (got === undefined) continue;
      const n = (answers.get(got) ?? 0) + 1;
      answers.set(got, n);
      if (n > 1) {
        duplicates++;
        continue;
      }
      latencies.push(performance.now() - (sentAt.get(got) ?? asked));
      answered++;
      if (answered % 500 === 0) samples.push({ proc, answered, rss: rssOf(gateway.child.pid ?? 0) });
      if (got === token) break;
    }
  }
}
await Promise.all(users.map(runUser));
const wall = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const lost = MESSAGES - answered - reported;
console.log(`messages               ${MESSAGES} from ${USERS} users over IRC (ngircd, flood limits lifted)`);
console.log(`SIGKILL + restart      after ${KILL_AT} questions`);
console.log(`messages / s           ${(answered / wall).toFixed(1)} (${wall.toFixed(0)} s)`);
console.log(`latency p50 / p99      ${pct(50).toFixed(1)} ms / ${pct(99).toFixed(1)} ms`);
console.log(`answered / reported    ${answered} / ${reported} (told "not answered" after the restart)`);
console.log(`asked again            ${resent} (never read by the killed process)`);
console.log(`duplicates / lost      ${duplicates} / ${lost}`);
for (const p of [0, 1]) {
  const s = samples.filter((x) => x.proc === p);
  const warm = s.filter((x) => x.answered > (s[0]?.answered ?? 0) + 1000);
  const k = slope(warm.map((x) => [x.answered, x.rss] as const)) * 1000;
  console.log(`RSS process ${p + 1} (MB)    ${s.map((x) => mb(x.rss)).join(" ")}`);
  console.log(`RSS slope process ${p + 1}    ${(k / 1024).toFixed(1)} KB per 1,000 messages (after warm-up)`);
}
gateway.child.kill("SIGTERM");
await new Promise((r) => gateway.child.once("exit", r));
await Promise.all(users.map((u) => u.quit()));
await ircd.stop();
await fake.close();
dir.cleanup();
process.exit(duplicates === 0 && lost === 0 ? 0 : 1);
