// Issue 30's gateway part of the multi-process check (scale-out.e2e.test.ts): two `iris gateway
// run` processes (the real bin, two homes: two machines as far as Iris can tell) on one Postgres
// schema and one IRC bot on a real ngircd. One holds the bot's connection, the other waits. Users
// ask at once; the holder is SIGKILLed with a turn running; the other takes the connection over,
// continues the cut turn and answers what comes next. Every chat question is answered exactly once.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RecordedRequest, type Step, startFakeLlm, startNgircd, TestIrcClient } from "@iris/testkit";
import { expect } from "vitest";
import { tempHome } from "./helpers.js";
import { type Cleanups, type Proc, startIris, until } from "./processes.js";

const BOT = "irisbot";

type ChatMessage = { role: string; content?: unknown };
const lastUser = (req: RecordedRequest) =>
  JSON.stringify((req.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === "user").at(-1));

export async function gatewaysOnOneIrcServer(url: string, schema: string, cleanups: Cleanups): Promise<void> {
  const fake = await startFakeLlm();
  cleanups.push(() => fake.close());
  let stall = true;
  fake.setHandler((req): Step => {
    const said = lastUser(req);
    if (said.includes("slow") && stall) return { fault: "stall" };
    const q = /question (\w+-\d+)/.exec(said)?.[1];
    return { text: q ? `answer to ${q}` : "answer to something else" };
  });
  const ircd = await startNgircd([], undefined, { unthrottled: true });
  cleanups.push(() => ircd.stop());
  const root = tempHome();
  cleanups.push(root.cleanup);

  const gateway = (name: string): Proc => {
    const home = join(root.home, name);
    mkdirSync(join(home, "work"), { recursive: true });
    writeFileSync(
      join(home, "config.yaml"),
      [
        "model: {provider: fake, name: fake-model}",
        `providers: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
        `store: {backend: postgres, schema: ${schema}}`,
        "approvals: {mode: off}",
        "gateway:",
        "  allow_all: true",
        "  platforms:",
        `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: []}`,
        "",
      ].join("\n"),
    );
    const env = { IRIS_HOME: home, IRIS_LOCK_DIR: join(home, "locks"), IRIS_DATABASE_URL: url };
    return startIris(["gateway", "run"], env, cleanups, { cwd: join(home, "work") });
  };
  const said = (g: Proc, what: string) => until(() => g.stderr().includes(what), `a gateway to say ${what}`);

  const a = gateway("gateway-a");
  await said(a, "iris gateway: running");
  const b = gateway("gateway-b");
  await said(b, "another gateway process holds irc");
  expect(b.stderr()).not.toContain("iris gateway: running");

  const users = await Promise.all(["ann", "bob", "cy"].map((n) => TestIrcClient.connect(ircd.port, n)));
  cleanups.push(() => Promise.all(users.map((u) => u.quit())).then(() => {}));
  const asked = new Map<TestIrcClient, string[]>(users.map((u) => [u, []]));
  const ask = (u: TestIrcClient, id: string, slow = false) => {
    asked.get(u)?.push(id);
    u.say(BOT, `${slow ? "slow " : ""}question ${id}?`);
  };
  const answeredAll = (u: TestIrcClient) =>
    u.waitForText(BOT, (lines) => (asked.get(u) ?? []).every((id) => lines.includes(`answer to ${id}`)));

  // Everyone asks at once, each user one question after another (queued messages of one chat
  // would be merged into one turn).
  await Promise.all(
    users.map(async (u, i) => {
      for (let k = 1; k <= 2; k++) {
        ask(u, `${u.nick}-${i * 10 + k}`);
        await answeredAll(u);
      }
    }),
  );

  // A turn runs in A (its model call hangs) when A is SIGKILLed.
  const [ann, bob, cy] = users as [TestIrcClient, TestIrcClient, TestIrcClient];
  ask(ann, "ann-50", true);
  await until(
    () => fake.requests.some((r) => lastUser(r).includes("ann-50")),
    "the slow question to reach the model",
  );
  a.child.kill("SIGKILL");
  await a.exited;
  stall = false;

  // B takes the connection over, continues the cut turn and answers what comes next.
  await said(b, "iris gateway: running");
  await answeredAll(ann);
  ask(bob, "bob-60");
  ask(cy, "cy-70");
  ask(ann, "ann-80");
  await Promise.all(users.map(answeredAll));

  for (const u of users) {
    const lines = u.messagesFrom(BOT);
    for (const id of asked.get(u) ?? []) expect(lines.filter((l) => l === `answer to ${id}`)).toHaveLength(1);
    expect(lines).toHaveLength(asked.get(u)?.length ?? -1);
  }
  b.child.kill("SIGTERM");
  expect((await b.exited).code, b.stderr()).toBe(0);
}
