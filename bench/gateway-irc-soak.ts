// The gateway soak over IRC (issue 19 "How it will be checked"): `iris gateway run` (the built
// bin, as a user runs it) on a real ngircd, 50 users who each DM the bot and wait for each answer
// before the next question, against the fake LLM server answering instantly. Halfway through, the
// gateway is SIGKILLed and started again. ngircd's flood limits are lifted (MaxPenaltyTime = 0,
// user mode F for every client, no cap on connections per IP): with the defaults one connection
// carries about 3 lines/s, which would hold 10,000 answers for an hour.
// Figures:
//   messages / s          answers / wall time (the restart included)
//   latency p50 / p99     question sent → answer received over IRC, with an instant model: what
//                         the gateway, the agent, the store and ngircd add
//   answered / reported   answered once / told "not answered" after the restart
//   asked again           questions the killed process never read from its socket (no answer, no
//                         notice): only the user can know; they ask again, once
//   duplicates / lost     answers received twice for one question / neither answered nor told
//   RSS                   the gateway's resident size every 500 answers; per process, the slope
//                         of a least-squares line after its first 1,000 answers (warm-up)
// Conversations: each user sends /new every 20 questions (--new-every; 0: never), as chats do,
// so a conversation's history (sent whole with every request; compression is off) stays short.
// Run (the bin must be built: npm run build): npx tsx bench/gateway-irc-soak.ts
//   [--messages 10000] [--users 50] [--kill-at 0.5] [--new-every 20]
import { runSoak } from "../packages/gateway/test/soak.js";
import { slope } from "./slope.js";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const messages = arg("--messages", 10_000);
const users = arg("--users", 50);
const killAt = Math.floor(messages * arg("--kill-at", 0.5));
const r = await runSoak({ messages, users, killAt, newEvery: arg("--new-every", 20) });
const lat = [...r.latenciesMs].sort((a, b) => a - b);
const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? 0;
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
console.log(`messages               ${messages} from ${users} users over IRC (ngircd, flood limits lifted)`);
console.log(`SIGKILL + restart      after ${killAt} questions`);
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
  console.log(`RSS slope process ${p + 1}    ${(k / 1024).toFixed(1)} KB per 1,000 messages (after warm-up)`);
}
process.exit(r.duplicates === 0 && r.lost === 0 ? 0 : 1);
