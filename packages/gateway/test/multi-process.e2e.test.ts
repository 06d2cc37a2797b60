// The gateway on many processes: two `iris gateway run` processes (the built bin, two
// homes: two machines as far as Iris can tell) on one Postgres profile, one IRC bot on a real
// ngircd. Exactly one holds the bot's connection (the database's advisory lock); the other waits.
// Several users ask at once and every question is answered exactly once. The holder is SIGKILLed
// with a turn running: the other takes the connection over, continues the cut turn, and answers
// what comes next; nothing is answered twice or lost. Cron answers the workers hand over on the
// delivery queue (cron-queue.ts) are sent by whichever process holds the bot, each key once.
import { loadProfile, openProfileQueue } from "@iris/host";
import {
  type FakeLlm,
  type Ngircd,
  type PostgresServer,
  type RecordedRequest,
  type Step,
  skipWithoutNgircd,
  skipWithoutPostgres,
  startFakeLlm,
  startNgircd,
  startPostgres,
  type TempDir,
  TestIrcClient,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeGatewayProfile } from "./profile.js";
import { type SpawnedGateway, spawnGateway, stopGateways } from "./spawned-gateway.js";

const BOT = "irisbot";
const skip = skipWithoutNgircd() || skipWithoutPostgres();

type ChatMessage = { role: string; content?: unknown };
/** Waits for a condition (never a fixed sleep). */
async function until(test: () => Promise<boolean>): Promise<void> {
  while (!(await test())) await new Promise((r) => setTimeout(r, 50));
}
const lastUser = (req: RecordedRequest) =>
  JSON.stringify((req.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === "user").at(-1));

describe.skipIf(skip)("two gateway processes on one Postgres share one IRC bot (SIGKILL takeover)", () => {
  let fake: FakeLlm;
  let ircd: Ngircd;
  let pg: PostgresServer;
  let homes: TempDir[] = [];
  const procs: SpawnedGateway[] = [];
  let stall = true;

  const start = (home: string) => {
    const g = spawnGateway(home, pg.url());
    procs.push(g);
    return g;
  };

  beforeAll(async () => {
    pg = await startPostgres();
    fake = await startFakeLlm();
    fake.setHandler((req): Step => {
      const said = lastUser(req);
      const q = /question (\w+-\d+)/.exec(said)?.[1];
      if (said.includes("slow") && stall) return { fault: "stall" };
      return { text: q ? `answer to ${q}` : "answer to something else" };
    });
    ircd = await startNgircd([], undefined, { unthrottled: true });
    homes = [tempDir("iris-gw-multi-a"), tempDir("iris-gw-multi-b")];
    for (const h of homes)
      writeGatewayProfile(h.path, fake, [
        "store: {backend: postgres, schema: team}",
        "approvals: {mode: off}",
        "gateway:",
        "  allow_all: true",
        "  platforms:",
        `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: []}`,
      ]);
  }, 120_000);

  afterAll(async () => {
    await stopGateways(procs);
    await ircd?.stop();
    await fake?.close();
    await pg?.close();
    for (const h of homes) h.cleanup();
  }, 60_000);

  it("answers every question exactly once, before and after the holder is killed", async () => {
    const [homeA, homeB] = homes.map((h) => h.path) as [string, string];
    const a = start(homeA);
    await a.said("iris gateway: running");
    const b = start(homeB);
    await b.said("another gateway process holds irc");
    expect(b.stderr()).not.toContain("iris gateway: running");
    // Cron runs in the workers on Postgres: this gateway sends their answers from the queue.
    expect(a.stderr()).toContain("cron jobs run in the profile's `iris worker` processes");
    const profile = loadProfile({
      env: { IRIS_HOME: homeA, IRIS_DATABASE_URL: pg.url() },
      registerSecret: () => {},
    });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const deliveries = await openProfileQueue(profile, "deliveries-irc");

    const users = await Promise.all(["ann", "bob", "cy"].map((n) => TestIrcClient.connect(ircd.port, n)));
    const cronLine = (l: string) => l.startsWith("cron answer");
    try {
      // A cron answer a worker handed over reaches its chat through A.
      await deliveries.add("cron:job1:1000", { platform: "irc", chatId: "ann", text: "cron answer 1" });
      await users[0]?.waitForText(BOT, (lines) => lines.includes("cron answer 1"));
      const asked = new Map<TestIrcClient, string[]>(users.map((u) => [u, []]));
      const ask = (u: TestIrcClient, id: string, slow = false) => {
        asked.get(u)?.push(id);
        u.say(BOT, `${slow ? "slow " : ""}question ${id}?`);
      };
      const answeredAll = (u: TestIrcClient) =>
        u.waitForText(BOT, (lines) => (asked.get(u) ?? []).every((id) => lines.includes(`answer to ${id}`)));

      // Before the kill: everyone asks at once (each user one question after another, so a
      // chat's queued messages are not merged into one turn); A answers.
      await Promise.all(
        users.map(async (u, i) => {
          for (let k = 1; k <= 3; k++) {
            ask(u, `${u.nick}-${i * 10 + k}`);
            await answeredAll(u);
          }
        }),
      );

      // A turn is running in A (its model call hangs) when A is killed.
      const [ann, bob, cy] = users as [TestIrcClient, TestIrcClient, TestIrcClient];
      ask(ann, "ann-50", true);
      while (!fake.requests.some((r) => lastUser(r).includes("ann-50")))
        await new Promise((r) => setTimeout(r, 20));
      await a.kill();
      stall = false;

      // B takes the connection over, continues the cut turn, and answers what comes next.
      await b.said("iris gateway: running");
      await answeredAll(ann);
      ask(bob, "bob-60");
      ask(cy, "cy-70");
      ask(ann, "ann-80");
      await Promise.all(users.map(answeredAll));
      // B sends the workers' answers now: one handed over again (a retried tick) is not sent twice.
      await deliveries.add("cron:job1:1000", { platform: "irc", chatId: "ann", text: "cron answer 1" });
      await deliveries.add("cron:job1:2000", { platform: "irc", chatId: "ann", text: "cron answer 2" });
      await ann.waitForText(BOT, (lines) => lines.includes("cron answer 2"));
      const gone = async (key: string) => (await deliveries.get(key)) === undefined;
      await until(async () => (await gone("cron:job1:1000")) && (await gone("cron:job1:2000")));
      expect(ann.messagesFrom(BOT).filter(cronLine)).toEqual(["cron answer 1", "cron answer 2"]);

      for (const u of users) {
        const lines = u.messagesFrom(BOT).filter((l) => !cronLine(l));
        for (const id of asked.get(u) ?? [])
          expect(lines.filter((l) => l === `answer to ${id}`)).toHaveLength(1);
        expect(lines).toHaveLength(asked.get(u)?.length ?? -1);
        expect(lines.join("\n")).not.toMatch(/not answered|send it again/);
      }
      // Each question reached the model once, the cut one twice (A's call, B's continuation).
      for (const id of [...asked.values()].flat()) {
        const calls = fake.requests.filter((r) => lastUser(r).includes(`question ${id}?`));
        expect(calls).toHaveLength(id === "ann-50" ? 2 : 1);
      }
    } finally {
      await Promise.all(users.map((u) => u.quit()));
      await deliveries.close();
    }
  }, 180_000);
});
