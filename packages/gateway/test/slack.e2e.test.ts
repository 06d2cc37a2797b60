// The gateway end to end over Slack in Socket Mode: `iris gateway run`'s code path with Bolt inside
// the adapter against the fake Slack in testkit (Web API and Socket Mode) and the fake LLM server.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeSlack,
  type RecordedRequest,
  type Step,
  solidPng,
  startFakeLlm,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayStatus } from "../src/commands.js";
import { E2eGateway, until } from "./e2e-gateway.js";
import { gatewayIo, lastMessage, textOf } from "./profile.js";

const BOT_TOKEN = "xoxb-1-fake-bot-secret-part";
const APP_TOKEN = "xapp-1-fake-app-secret-part";
const STORM = `${"storm ".repeat(200)}END`;
const CHART = solidPng(4, 3, [30, 200, 30]);
/** What the model's slow answer waits for (released by the test). */
let release = () => {};
const slowAnswer = new Promise<void>((r) => {
  release = r;
});

function reply(req: RecordedRequest): Step | Promise<Step> {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("run danger"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./scratch-dir" } }] };
  if (said.endsWith("storm")) return { text: STORM, chunkSize: 50 };
  if (said.endsWith("bold")) return { text: "a **bold** [link](https://example.org)" };
  if (said.endsWith("take your time")) return slowAnswer.then(() => ({ text: "took my time" }));
  if (said.endsWith("send the chart"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "chart.png", caption: "the **chart**" } }] };
  return { text: `echo: ${said}` };
}

describe("gateway over Slack (fake Slack, Socket Mode)", () => {
  let sl: FakeSlack;
  let fake: FakeLlm;
  let gw: E2eGateway;
  let min = "";
  let dm = "";
  let general = "";
  const texts = (channel: string, threadTs?: string) =>
    sl
      .botMessages(channel)
      .filter((m) => threadTs === undefined || m.threadTs === threadTs)
      .map((m) => m.texts.at(-1) ?? "");
  const answered = (channel: string, ok: (t: string) => boolean, threadTs?: string) =>
    until(
      () => texts(channel, threadTs),
      (t) => t.some(ok),
      `a reply in ${channel}`,
    );

  beforeAll(async () => {
    [sl, fake] = await Promise.all([
      FakeSlack.start({ botToken: BOT_TOKEN, appToken: APP_TOKEN, pingIntervalMs: 1000 }),
      startFakeLlm(),
    ]);
    fake.setHandler(reply);
    min = sl.addUser("Min");
    dm = sl.dm(min);
    general = sl.addChannel("general");
    gw = await E2eGateway.start(
      "iris-gw-slack",
      fake,
      `SLACK_BOT_TOKEN=${BOT_TOKEN}\nSLACK_APP_TOKEN=${APP_TOKEN}\n`,
      [
        "gateway:",
        "  platforms:",
        `    slack: {api_url: "${sl.apiUrl}", allowed_users: ["${min}"]}`,
        // The other platform, which must keep running when Slack stops.
        "    webchat: {port: 0}",
      ],
    );
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([sl?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain("secret-part");
  }, 60_000);

  it("answers an allowed user's DM in mrkdwn, with the platform's formatting hint in the prompt", async () => {
    sl.send({ channel: dm, user: min, text: "hello" });
    await answered(dm, (t) => t === "echo: hello");
    const system = (fake.requests.at(-1)?.body as { messages: { role: string }[] } | undefined)?.messages[0];
    expect(textOf(system as never)).toContain("This chat is Slack");
    sl.send({ channel: dm, user: min, text: "say bold" });
    await answered(dm, (t) => t === "a *bold* <https://example.org|link>");
  }, 60_000);

  it("gives a stranger a pairing code and never reaches the model", async () => {
    const before = fake.requests.length;
    const stranger = sl.addUser("Stranger");
    const theirs = sl.dm(stranger);
    sl.send({ channel: theirs, user: stranger, text: "let me in" });
    const [refusal] = await answered(theirs, (t) => t.includes("pairing code"));
    expect(refusal).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(fake.requests.length).toBe(before);
  }, 60_000);

  it("in a channel answers only a mention, in the mention's thread; a thread is its own session", async () => {
    sl.send({ channel: general, user: min, text: "just chatting" });
    const asked = sl.send({ channel: general, user: min, text: "are you there?", mentionBot: true });
    await answered(general, (t) => t.includes("are you there?"), asked);
    expect(texts(general).join("\n")).not.toContain("just chatting");
    // Slack sent `message` and `app_mention` for it: answered once.
    expect(texts(general).filter((t) => t.includes("are you there?"))).toHaveLength(1);
    const other = sl.send({ channel: general, user: min, text: "new topic", mentionBot: true });
    sl.send({ channel: general, user: min, text: "in the thread", threadTs: other, mentionBot: true });
    await answered(general, (t) => t.includes("in the thread"), other);
    const body = fake.requests.at(-1)?.body as { messages: { role: string }[] } | undefined;
    const users = (body?.messages ?? []).filter((m) => m.role === "user").map((m) => textOf(m as never));
    expect(users.join()).not.toContain("are you there?");
  }, 60_000);

  it("saves files shared with the bot (fetched with its token), names them and shows the picture", async () => {
    sl.send({
      channel: dm,
      user: min,
      text: "look at these",
      files: [
        { name: "chart.png", mimetype: "image/png", bytes: CHART },
        { name: "notes.txt", mimetype: "text/plain", bytes: Buffer.from("some notes") },
      ],
    });
    await answered(dm, (t) => t.startsWith("echo:") && t.includes("look at these"));
    const { last, said } = lastMessage(fake.requests.at(-1) as RecordedRequest);
    expect(said).toContain("[image attached: chart.png, saved at ");
    const notes = /\[file attached: notes\.txt, saved at (\S+)/.exec(said)?.[1] ?? "";
    expect(readFileSync(notes, "utf8")).toBe("some notes");
    expect(JSON.stringify(last?.content)).toContain(`data:image/png;base64,${CHART.toString("base64")}`);
  }, 60_000);

  it("sends a file the model asks for through Slack's upload flow, in the thread, and shows a status while it works", async () => {
    writeFileSync(join(gw.home, "work", "chart.png"), CHART);
    const from = sl.calls.length;
    const asked = sl.send({ channel: general, user: min, text: "send the chart", mentionBot: true });
    await answered(general, (t) => t.startsWith("done:"), asked);
    const shared = sl.botMessages(general).filter((m) => m.files?.length);
    expect(shared).toHaveLength(1);
    expect(shared[0]?.threadTs).toBe(asked);
    expect(shared[0]?.texts[0]).toBe("the *chart*");
    expect(shared[0]?.files?.[0]?.name).toBe("chart.png");
    expect(shared[0]?.files?.[0]?.bytes.equals(CHART)).toBe(true);
    const methods = sl.calls.slice(from).map((c) => c.method);
    expect(methods).toEqual(
      expect.arrayContaining(["files.getUploadURLExternal", "files.completeUploadExternal"]),
    );
    expect(methods).not.toContain("files.upload");
    // Slack has no typing indicator for bots: the thread showed "<app> is thinking…" instead,
    // gone once the answer was there.
    expect(sl.statuses(general, asked)).toContain("is thinking…");
    await until(
      () => sl.statuses(general, asked).at(-1),
      (s) => s === "",
      "the thread's status to be cleared",
    );
  }, 60_000);

  it("acks an event at once, not when its answer is done: a slow turn is not delivered again", async () => {
    const before = { redeliveries: sl.redeliveries, requests: fake.requests.length };
    sl.send({ channel: dm, user: min, text: "take your time" });
    // The turn is running (the model was asked) and Slack has its ack already.
    await until(
      () => fake.requests.length,
      (n) => n > before.requests,
      "the model to be asked",
    );
    await until(
      () => sl.unacked,
      (n) => n === 0,
      "the event to be acked",
    );
    release();
    await answered(dm, (t) => t === "took my time");
    expect(sl.redeliveries).toBe(before.redeliveries);
    expect(texts(dm).filter((t) => t === "took my time")).toHaveLength(1);
  }, 60_000);

  it("a redelivered event (same event_id, retry_attempt 1) is answered once", async () => {
    sl.send({ channel: dm, user: min, text: "only once" });
    sl.redeliverLast();
    await answered(dm, (t) => t === "echo: only once");
    await new Promise((r) => setTimeout(r, 500));
    expect(texts(dm).filter((t) => t === "echo: only once")).toHaveLength(1);
  }, 60_000);

  it("asks for an approval with Block Kit buttons keyed by the request id; pressing Approve runs the command", async () => {
    sl.send({ channel: dm, user: min, text: "run danger" });
    await answered(dm, (t) => t.startsWith("Approval needed"));
    const ask = sl.botMessages(dm).find((m) => m.texts[0]?.startsWith("Approval needed"));
    expect(ask?.texts[0]).toContain("rm -rf ./scratch-dir");
    const approve = ask?.buttons.find((b) => b.label === "Approve");
    expect(approve?.actionId).toMatch(/^ap:o:approval_\d+$/);
    sl.press(dm, ask?.ts ?? "", approve?.actionId ?? "", min);
    await answered(dm, (t) => t.startsWith("done:"));
    expect(texts(dm)).toContain("approved (once)");
  }, 60_000);

  it("skips a malformed event and keeps answering", async () => {
    sl.pushRaw({
      type: "event_callback",
      event_id: "Ev-bad",
      event: { type: "message", channel: 5, user: null },
    });
    sl.send({ channel: dm, user: min, text: "still there?" });
    await answered(dm, (t) => t === "echo: still there?");
  }, 60_000);

  it("under a 429 storm delivers a streamed reply once and whole, nothing to the chat before Retry-After", async () => {
    sl.rateLimit(/^chat\.(postMessage|update)$/, 2, 1);
    const from = sl.calls.length;
    sl.send({ channel: dm, user: min, text: "storm" });
    await answered(dm, (t) => t === STORM);
    const calls = sl.calls.slice(from).filter((c) => c.channel === dm);
    expect(calls.filter((c) => c.status === 429).length).toBeGreaterThan(0);
    for (const [i, c] of calls.entries())
      if (c.status === 429)
        for (const later of calls.slice(i + 1)) expect(later.at - c.at).toBeGreaterThanOrEqual(1000 - 5);
    expect(texts(dm).filter((t) => t === STORM)).toHaveLength(1);
  }, 60_000);

  it("a socket Slack drops is reconnected; what was sent meanwhile arrives", async () => {
    const connections = sl.connections;
    sl.dropConnections();
    sl.send({ channel: dm, user: min, text: "while away" });
    await answered(dm, (t) => t === "echo: while away");
    expect(sl.connections).toBeGreaterThan(connections);
  }, 60_000);

  it("an uninstalled app stops Slack, and status says so", async () => {
    sl.revokeToken();
    const out: string[] = [];
    await until(
      () => {
        out.length = 0;
        gatewayStatus({ ...gatewayIo(gw.home, () => {}), out: (s) => out.push(s) });
        return out.join("");
      },
      (s) => s.includes("slack: stopped"),
      "status to show slack stopped",
    );
    expect(out.join("")).toMatch(/slack: stopped since .*invalid_auth/);
    expect(out.join("")).toContain("webchat: running");
    const url = /web chat at (\S+)/.exec(gw.err)?.[1] ?? "";
    expect((await fetch(url)).status).toBeLessThan(500);
  }, 60_000);
});
