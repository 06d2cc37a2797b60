// The gateway end to end over Discord: `iris gateway run`'s code path with discord.js inside the
// adapter against the fake Discord in testkit (REST and Gateway) and the fake LLM server.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  FakeDiscord,
  type FakeLlm,
  type RecordedRequest,
  type Step,
  solidPng,
  startFakeLlm,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayStatus } from "../src/commands.js";
import { E2eGateway, until } from "./e2e-gateway.js";
import { gatewayIo, lastMessage, textOf } from "./profile.js";

const TOKEN = `${Buffer.from("1100000000004194304").toString("base64")}.fake.secret-part`;
const MIN = { id: "1200000000000000501", username: "min", global_name: "Min" };
const STRANGER = { id: "1200000000000000999", username: "stranger" };
const STORM = `${"storm ".repeat(200)}END`;
const CHART = solidPng(4, 3, [30, 30, 200]);

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("run danger"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./scratch-dir" } }] };
  if (said.endsWith("storm")) return { text: STORM, chunkSize: 50 };
  if (said.endsWith("send the chart"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "chart.png", caption: "the chart" } }] };
  return { text: `echo: ${said}` };
}

describe("gateway over Discord (fake Discord)", () => {
  let dc: FakeDiscord;
  let fake: FakeLlm;
  let gw: E2eGateway;
  let general = "";
  let dm = "";
  const texts = (channelId: string) =>
    dc
      .messages(channelId)
      .filter((m) => !m.deleted)
      .map((m) => m.texts.at(-1) ?? "");
  const answered = (channelId: string, ok: (t: string) => boolean) =>
    until(
      () => texts(channelId),
      (t) => t.some(ok),
      `a reply in ${channelId}`,
    );

  beforeAll(async () => {
    [dc, fake] = await Promise.all([
      FakeDiscord.start({ token: TOKEN, heartbeatIntervalMs: 1000 }),
      startFakeLlm(),
    ]);
    fake.setHandler(reply);
    general = dc.addGuild("team", ["general"]).channelIds[0] as string;
    dm = dc.dmChannel(MIN);
    gw = await E2eGateway.start("iris-gw-discord", fake, `DISCORD_BOT_TOKEN=${TOKEN}\n`, [
      "gateway:",
      "  platforms:",
      `    discord: {api_base: "${dc.apiBase}", allowed_users: ["${MIN.id}"], request_timeout_seconds: 1}`,
      // The other platform, which must keep running when Discord stops.
      "    webchat: {port: 0}",
    ]);
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([dc?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain("secret-part");
  }, 60_000);

  it("answers an allowed user's DM with the platform's formatting hint in the prompt", async () => {
    dc.send({ channelId: dm, author: MIN, content: "hello" });
    await answered(dm, (t) => t === "echo: hello");
    // "typing…" was shown while the answer was on its way.
    expect(dc.typing.some((t) => t.channelId === dm)).toBe(true);
    const system = (fake.requests.at(-1)?.body as { messages: { role: string }[] } | undefined)?.messages[0];
    expect(textOf(system as never)).toContain("This chat is Discord");
  }, 60_000);

  it("gives a stranger (by id, whatever their name) a pairing code and never reaches the model", async () => {
    const before = fake.requests.length;
    const theirs = dc.dmChannel(STRANGER);
    dc.send({ channelId: theirs, author: { ...STRANGER, global_name: MIN.id }, content: "let me in" });
    const [refusal] = await answered(theirs, (t) => t.includes("pairing code"));
    expect(refusal).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(fake.requests.length).toBe(before);
  }, 60_000);

  it("in a guild channel answers only a mention; a thread is its own session", async () => {
    dc.send({ channelId: general, author: MIN, content: "just chatting" });
    dc.send({ channelId: general, author: MIN, content: "are you there?", mentionBot: true });
    await answered(general, (t) => t.includes("are you there?"));
    expect(texts(general).join("\n")).not.toContain("just chatting");
    const thread = dc.addThread(general, "side topic");
    dc.send({ channelId: thread, author: MIN, content: "in the thread", mentionBot: true });
    await answered(thread, (t) => t.includes("in the thread"));
    const body = fake.requests.at(-1)?.body as { messages: { role: string }[] } | undefined;
    const users = (body?.messages ?? []).filter((m) => m.role === "user").map((m) => textOf(m as never));
    expect(users.join()).not.toContain("are you there?");
  }, 60_000);

  it("asks for an approval with buttons keyed by the request id; pressing Approve runs the command", async () => {
    dc.send({ channelId: dm, author: MIN, content: "run danger" });
    await answered(dm, (t) => t.startsWith("Approval needed"));
    const ask = dc.messages(dm).find((m) => m.texts[0]?.startsWith("Approval needed"));
    expect(ask?.texts[0]).toContain("rm -rf ./scratch-dir");
    const approve = ask?.buttons.find((b) => b.label === "Approve");
    expect(approve?.customId).toMatch(/^ap:o:approval_\d+$/);
    const press = dc.press(ask?.id ?? "", approve?.customId ?? "", MIN);
    await answered(dm, (t) => t.startsWith("done:"));
    expect(texts(dm)).toContain("approved (once)");
    expect(dc.interactionAnswered(press)).toBe(true);
  }, 60_000);

  it("saves attachments sent to the bot, names them to the model and shows it the picture", async () => {
    dc.send({
      channelId: dm,
      author: MIN,
      content: "look at these",
      attachments: [
        { filename: "chart.png", contentType: "image/png", bytes: CHART },
        { filename: "notes.txt", contentType: "text/plain", bytes: Buffer.from("some notes") },
      ],
    });
    await answered(dm, (t) => t.startsWith("echo:") && t.includes("look at these"));
    const { last, said } = lastMessage(fake.requests.at(-1) as RecordedRequest);
    expect(said).toContain("[image attached: chart.png, saved at ");
    const notes = /\[file attached: notes\.txt, saved at (\S+)/.exec(said)?.[1] ?? "";
    expect(readFileSync(notes, "utf8")).toBe("some notes");
    expect(JSON.stringify(last?.content)).toContain(`data:image/png;base64,${CHART.toString("base64")}`);
  }, 60_000);

  it("sends a file the model asks for as an attachment, in the thread it was asked in", async () => {
    writeFileSync(join(gw.home, "work", "chart.png"), CHART);
    const thread = dc.addThread(general, "charts");
    dc.send({ channelId: thread, author: MIN, content: "send the chart", mentionBot: true });
    await answered(thread, (t) => t.startsWith("done:"));
    const sent = dc.messages(thread).filter((m) => m.files?.length);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.texts[0]).toBe("the chart");
    expect(sent[0]?.files?.[0]?.name).toBe("chart.png");
    expect(sent[0]?.files?.[0]?.contentType).toBe("image/png");
    expect(sent[0]?.files?.[0]?.bytes.equals(CHART)).toBe(true);
  }, 60_000);

  it("skips a malformed event and keeps answering", async () => {
    dc.pushRaw("MESSAGE_CREATE", { id: "x", channel_id: null, author: null, content: 7 });
    dc.send({ channelId: dm, author: MIN, content: "still there?" });
    await answered(dm, (t) => t === "echo: still there?");
  }, 60_000);

  it("under a 429 storm delivers a streamed reply once and whole, nothing to the channel before retry_after", async () => {
    dc.floodWait(/^(POST|PATCH) \/channels\/\d+\/messages/, 2, 1);
    const from = dc.calls.length;
    dc.send({ channelId: dm, author: MIN, content: "storm" });
    await answered(dm, (t) => t === STORM);
    const calls = dc.calls.slice(from).filter((c) => c.channelId === dm);
    expect(calls.filter((c) => c.status === 429).length).toBeGreaterThan(0);
    for (const [i, c] of calls.entries())
      if (c.status === 429)
        for (const later of calls.slice(i + 1)) expect(later.at - c.at).toBeGreaterThanOrEqual(1000 - 5);
    expect(texts(dm).filter((t) => t === STORM)).toHaveLength(1);
  }, 60_000);

  it("a create answered after the REST timeout is retried by the client but shown once (its nonce)", async () => {
    dc.stallAnswers(/^POST \/channels\/\d+\/messages$/, 1, 2500);
    const from = dc.calls.length;
    dc.send({ channelId: dm, author: MIN, content: "slow line" });
    await answered(dm, (t) => t === "echo: slow line");
    // The stalled answer lands 2.5 s after its create; by then the client has retried.
    await new Promise((r) => setTimeout(r, 3000));
    const creates = dc.calls
      .slice(from)
      .filter((c) => c.method === "POST" && c.route === `/channels/${dm}/messages`);
    expect(creates.length).toBeGreaterThan(1);
    expect(texts(dm).filter((t) => t.includes("slow line"))).toHaveLength(1);
  }, 60_000);

  it("registers the chat's commands as slash commands; one used in a DM runs as typed", async () => {
    expect(dc.commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(["new", "model", "approve", "help"]),
    );
    const id = dc.slashCommand(dm, MIN, "model");
    await answered(dm, (t) => t.startsWith("current: fake/fake-model"));
    expect(dc.interactionAnswered(id)).toBe(true);
    dc.slashCommand(dm, MIN, "new");
    await answered(dm, (t) => /^new session \S+/.test(t));
  }, 60_000);

  it("a connection that goes deaf is found by its heartbeat and resumed; nothing is lost", async () => {
    const resumes = dc.resumes;
    dc.deaf();
    dc.send({ channelId: dm, author: MIN, content: "while deaf" });
    // The unanswered heartbeat tells the client; it opens a new connection and resumes there,
    // where the message missed on the deaf one is replayed.
    await answered(dm, (t) => t === "echo: while deaf");
    expect(dc.resumes).toBeGreaterThan(resumes);
  }, 60_000);

  it("a dropped connection is resumed (not identified anew); what was sent meanwhile arrives", async () => {
    const resumes = dc.resumes;
    dc.dropConnections();
    dc.send({ channelId: dm, author: MIN, content: "while dropped" });
    await answered(dm, (t) => t === "echo: while dropped");
    expect(dc.resumes).toBeGreaterThan(resumes);
    expect(texts(dm).filter((t) => t === "echo: while dropped")).toHaveLength(1);
  }, 60_000);

  it("a revoked token stops Discord, and status says so", async () => {
    dc.revokeToken();
    const out: string[] = [];
    await until(
      () => {
        out.length = 0;
        gatewayStatus({ ...gatewayIo(gw.home, () => {}), out: (s) => out.push(s) });
        return out.join("");
      },
      (s) => s.includes("discord: stopped"),
      "status to show discord stopped",
    );
    expect(out.join("")).toMatch(/discord: stopped since .*4004/);
    expect(out.join("")).toContain("webchat: running");
    const url = /web chat at (\S+)/.exec(gw.err)?.[1] ?? "";
    expect((await fetch(url)).status).toBeLessThan(500);
  }, 60_000);
});
