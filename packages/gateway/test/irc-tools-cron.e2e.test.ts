// send_message, cronjob and cron inside a live gateway over IRC, end to end: a user
// in a running `iris gateway run` asks the agent to post to a channel and to schedule a job, each
// approved in chat; the job fires in the running gateway and posts to the channel; after a
// restart no slot fires twice, a missed slot runs once or is skipped per job.
import { join } from "node:path";
import { openStore } from "@iris/host";
import {
  type FakeLlm,
  type Ngircd,
  type RecordedRequest,
  type Step,
  skipWithoutNgircd,
  startFakeLlm,
  startNgircd,
  type TempDir,
  TestIrcClient,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCronState } from "../src/state/cron-open.js";
import { lastMessage, runGateway, textOf, writeGatewayProfile } from "./profile.js";

const BOT = "irisbot";

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 300)}` };
  if (said === "post news")
    return { toolCalls: [{ name: "send_message", arguments: { to: "irc:#news", message: "hello news" } }] };
  if (said === "post secret")
    return { toolCalls: [{ name: "send_message", arguments: { to: "irc:#secret", message: "psst" } }] };
  if (said === "schedule it") {
    const at = new Date(Date.now() + 1500).toISOString();
    return {
      toolCalls: [
        {
          name: "cronjob",
          arguments: { action: "add", schedule: `at ${at}`, to: "irc:#news", prompt: "job one-shot" },
        },
      ],
    };
  }
  if (said === "list jobs") return { toolCalls: [{ name: "cronjob", arguments: { action: "list" } }] };
  // A cron job's prompt: its answer goes to the job's chat.
  if (said.startsWith("job ")) return { text: `fired: ${said}` };
  return { text: `echo: ${said}` };
}

const skip = skipWithoutNgircd();

describe.skipIf(skip)("gateway tools and cron over IRC (ngircd)", () => {
  let ircd: Ngircd;
  let fake: FakeLlm;
  let dir: TempDir;
  let bob: TestIrcClient;
  let gateway: { stop: () => void; running: Promise<number> } | undefined;
  let err = "";

  async function startGateway(): Promise<void> {
    const joined = bob.lines.length;
    const { stop, running } = runGateway(
      dir.path,
      (s) => {
        err += s;
      },
      { cronTickMs: 300 },
    );
    gateway = { stop, running };
    const up = bob.waitFor(
      (l) => l.command === "JOIN" && l.nick === BOT && (l.params[0] ?? l.text) === "#news",
      60_000,
    );
    await Promise.race([
      up,
      running.then((code) => Promise.reject(new Error(`gateway exited ${code}: ${err}`))),
    ]);
    expect(bob.lines.length).toBeGreaterThan(joined);
  }

  async function stopGateway(): Promise<void> {
    if (!gateway) return;
    gateway.stop();
    const code = await gateway.running;
    gateway = undefined;
    expect(code, err).toBe(0);
  }

  const news = () => bob.messagesFrom(BOT, "#news");
  const jobs = async () => {
    const store = openStore(join(dir.path, "state.db"));
    try {
      return await (await openCronState(store)).list();
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    [ircd, fake] = await Promise.all([startNgircd(["#news", "#secret"]), startFakeLlm()]);
    fake.setHandler(reply);
    dir = tempDir("iris-gw-tools");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: ["#news"], allowed_users: [bob]}`,
    ]);
    bob = await TestIrcClient.connect(ircd.port, "bob");
    await bob.join("#news");
    await startGateway();
  }, 60_000);

  afterAll(async () => {
    await stopGateway();
    await bob?.quit();
    await Promise.all([ircd?.stop(), fake?.close()]);
    dir?.cleanup();
  }, 60_000);

  it("send_message posts to a configured channel once the user approves it in chat", async () => {
    bob.say(BOT, "post news");
    await bob.waitForText(BOT, (t) => t.some((x) => x.startsWith("Approval needed")));
    const asked = bob.messagesFrom(BOT).find((x) => x.startsWith("Approval needed")) ?? "";
    expect(asked).toContain("send_message to irc:#news: hello news");
    expect(news()).toEqual([]); // nothing is posted before the answer
    bob.say(BOT, "/approve");
    await bob.waitForText(BOT, (t) => t.some((x) => x.startsWith("done:")));
    expect(news()).toEqual(["hello news"]);
    expect(bob.messagesFrom(BOT).find((x) => x.startsWith("done:"))).toContain('"sent":true');
  }, 60_000);

  it("send_message refuses a chat the gateway is not configured for, naming it", async () => {
    bob.say(BOT, "post secret");
    await bob.waitForText(BOT, (t) => t.filter((x) => x.startsWith("Approval needed")).length >= 2);
    bob.say(BOT, "/approve");
    const lines = await bob.waitForText(BOT, (t) => t.filter((x) => x.startsWith("done:")).length >= 2);
    expect(lines.at(-1)).toContain("#secret is not a configured chat of irc");
  }, 60_000);

  it("cronjob adds an approved job that fires in the running gateway and posts to the channel", async () => {
    bob.say(BOT, "schedule it");
    await bob.waitForText(BOT, (t) =>
      t.some((x) => x.startsWith("Approval needed") && x.includes("cronjob add")),
    );
    expect(await jobs()).toHaveLength(0);
    bob.say(BOT, "/approve");
    await bob.waitForText(BOT, (t) => t.some((x) => x.startsWith("done:") && x.includes('"added"')));
    expect(await jobs()).toHaveLength(1);
    await bob.waitForText(BOT, () => news().includes("fired: job one-shot"), 60_000);
    // Listing asks nothing.
    const before = bob.messagesFrom(BOT).length;
    bob.say(BOT, "list jobs");
    const lines = await bob.waitForText(
      BOT,
      (t) => t.length > before && t.at(-1)?.startsWith("done:") === true,
    );
    expect(lines.at(-1)).toContain("job one-shot");
    expect(lines.slice(before).some((x) => x.startsWith("Approval needed"))).toBe(false);
  }, 90_000);

  it("after a restart no slot fires twice; a missed slot runs once or is skipped per job", async () => {
    await stopGateway();
    const hour = 3_600_000;
    const store = openStore(join(dir.path, "state.db"));
    try {
      const cron = await openCronState(store);
      // Both were due 30 minutes ago, while the gateway was down (later than the 2-tick grace).
      await cron.add(
        { schedule: "every 1h", platform: "irc", chatId: "#news", missed: "skip", prompt: "job skipped" },
        Date.now() - 2.5 * hour,
      );
      await cron.add(
        { schedule: "every 1h", platform: "irc", chatId: "#news", missed: "run", prompt: "job late" },
        Date.now() - 2.5 * hour + 1,
      );
    } finally {
      await store.close();
    }
    await startGateway();
    await bob.waitForText(BOT, () => news().includes("fired: job late"), 60_000);
    // A job added now is the last of a pass: once it fired, a whole pass after the restart went
    // over the one-shot that fired before it.
    const s2 = openStore(join(dir.path, "state.db"));
    try {
      await (await openCronState(s2)).add({
        schedule: `at ${new Date(Date.now() + 500).toISOString()}`,
        platform: "irc",
        chatId: "#news",
        missed: "run",
        prompt: "job marker",
      });
    } finally {
      await s2.close();
    }
    await bob.waitForText(BOT, () => news().includes("fired: job marker"), 60_000);
    await stopGateway();
    const fired = news().filter((x) => x.startsWith("fired:"));
    expect(fired.filter((x) => x === "fired: job one-shot")).toHaveLength(1);
    expect(fired.filter((x) => x === "fired: job late")).toHaveLength(1);
    expect(fired).not.toContain("fired: job skipped");
    // The skipped job's slot is marked done, so it is not run later either.
    expect((await jobs()).find((j) => j.prompt === "job skipped")?.lastSlot).not.toBeNull();
  }, 120_000);
});
