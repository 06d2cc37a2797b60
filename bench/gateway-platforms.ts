// The gateway over each chat platform's fake (Telegram, Discord, Slack): `iris gateway run` (the
// built bin, as a user runs it) with the platform's official client inside, 100 users who each DM
// the bot and wait for each answer before the next question, the fake LLM server answering at
// once, and a SIGKILL and restart halfway (test/platform-soak.ts; the kill tests run 300).
// Figures per platform:
//   messages / s          answers / wall time (the restart included); each platform's per-chat
//                         rate limit (about 1 message a second) bounds one user's pace
//   latency p50 / p99     question sent → answer shown in the fake
//   answered / reported   answered once / told "not answered" after the restart
//   asked again           questions the killed process never took from the platform
//   duplicates / lost     answers shown twice for one question / neither answered nor told
//   RSS                   the gateway's resident size every 500 answers; per process, the slope
//                         of a least-squares line after its first 1,000 answers (warm-up)
// Run (the bin must be built: npm run build):
//   npx tsx bench/gateway.ts --platform [telegram|discord|slack|all] [--messages 10000] [--users 100]
//     [--new-every 20]: each user sends /new every 20 questions (0: never), as bench/gateway.ts
import { runPlatformSoak, type SoakPlatform } from "../packages/gateway/test/platform-soak.js";
import { discordSoak, slackSoak, telegramSoak } from "../packages/gateway/test/soak-platforms.js";
import { slope } from "./slope.js";

const MAKERS: Record<string, (users: number) => Promise<SoakPlatform>> = {
  telegram: telegramSoak,
  discord: discordSoak,
  slack: slackSoak,
};

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] && !process.argv[i + 1]?.startsWith("--")
    ? (process.argv[i + 1] as string)
    : dflt;
};
const which = arg("--platform", "all");
const messages = Number(arg("--messages", "10000"));
const users = Number(arg("--users", "100"));
const newEvery = Number(arg("--new-every", "20"));
const names = which === "all" ? Object.keys(MAKERS) : [which];
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
let failed = false;
for (const name of names) {
  const make = MAKERS[name];
  if (!make) throw new Error(`--platform ${name}: one of ${Object.keys(MAKERS).join(", ")} or all`);
  const killAt = Math.floor(messages / 2);
  const r = await runPlatformSoak(make, { messages, users, killAt, sampleEvery: 500, newEvery });
  const lat = [...r.latenciesMs].sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? 0;
  console.log(`== ${name}: ${messages} messages from ${users} users, SIGKILL + restart after ${killAt}`);
  console.log(`messages / s           ${(r.answered / r.wallS).toFixed(1)} (${r.wallS.toFixed(0)} s)`);
  console.log(`latency p50 / p99      ${pct(50).toFixed(1)} ms / ${pct(99).toFixed(1)} ms`);
  console.log(`answered / reported    ${r.answered} / ${r.reported}`);
  console.log(`asked again            ${r.askedAgain}`);
  console.log(`duplicates / lost      ${r.duplicates} / ${r.lost}`);
  for (const p of [0, 1]) {
    const s = r.rss.filter(([proc]) => proc === p);
    const first = s[0]?.[1] ?? 0;
    const k = slope(s.filter(([, n]) => n > first + 1000).map(([, n, b]) => [n, b] as const)) * 1000;
    console.log(`RSS process ${p + 1} (MB)    ${s.map(([, , b]) => mb(b)).join(" ")}`);
    console.log(
      `RSS slope process ${p + 1}    ${(k / 1024).toFixed(1)} KB per 1,000 messages (after warm-up)`,
    );
  }
  failed ||= r.duplicates !== 0 || r.lost !== 0;
}
process.exitCode = failed ? 1 : 0;
