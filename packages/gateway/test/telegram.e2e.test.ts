// The gateway end to end over Telegram: `iris gateway run`'s code path with grammY inside the
// adapter against the fake Bot API in testkit and the fake LLM server. The bot token comes from
// the profile's .env; the web chat runs beside it (the other platform that must keep running).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeTelegram,
  type RecordedRequest,
  type Step,
  solidPng,
  startFakeLlm,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayStatus } from "../src/commands.js";
import { E2eGateway, until } from "./e2e-gateway.js";
import { type ChatMessage, gatewayIo, lastMessage, textOf } from "./profile.js";

const TOKEN = "4242:test-secret";
const MIN = { id: 501, first_name: "Min", username: "min" };
const JO = { id: 502, first_name: "Jo" };
const STRANGER = { id: 999, first_name: "Stranger" };
const dm = (u: { id: number }) => ({ id: u.id, type: "private" as const });
const GROUP = { id: -1001, type: "supergroup" as const, title: "team" };
const FORUM = { id: -1002, type: "supergroup" as const, title: "forum", forum: true };
const STORM = `${"storm ".repeat(300)}END`;
const CHART = solidPng(4, 3, [200, 30, 30]);

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("run danger"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./scratch-dir" } }] };
  if (said.endsWith("storm")) return { text: STORM, chunkSize: 50 };
  if (said.endsWith("send the chart"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "chart.png", caption: "the chart" } }] };
  if (said.endsWith("send the notes"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "notes.csv" } }] };
  if (said.endsWith("send the missing"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "gone.pdf" } }] };
  if (said.endsWith("send the profile's env"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "../.env" } }] };
  return { text: `echo: ${said}` };
}

describe("gateway over Telegram (fake Bot API)", () => {
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let gw: E2eGateway;
  const texts = (chatId: number, threadId?: number) =>
    tg
      .messages(chatId, threadId)
      .filter((m) => !m.deleted)
      .map((m) => m.texts.at(-1) ?? "");
  const answered = (chatId: number, ok: (t: string) => boolean, threadId?: number) =>
    until(
      () => texts(chatId, threadId),
      (t) => t.some(ok),
      `a reply in ${chatId}`,
    );

  beforeAll(async () => {
    [tg, fake] = await Promise.all([FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    fake.setHandler(reply);
    gw = await E2eGateway.start("iris-gw-telegram", fake, `TELEGRAM_BOT_TOKEN=${TOKEN}\n`, [
      "gateway:",
      "  platforms:",
      `    telegram: {api_root: "${tg.apiRoot}", allowed_users: ["@min", ${JO.id}], poll_timeout_seconds: 1}`,
      "    webchat: {port: 0}",
    ]);
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([tg?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain(TOKEN.split(":")[1]);
  }, 60_000);

  it("answers an allowed user's DM, and registers the chat commands", async () => {
    tg.send({ chat: dm(MIN), from: MIN, text: "hello" });
    expect(await answered(MIN.id, (t) => t === "echo: hello")).toContain("echo: hello");
    // "typing…" was shown while the answer was on its way.
    const typing = tg.calls.filter((c) => c.method === "sendChatAction" && c.params.action === "typing");
    expect(typing.map((c) => Number(c.params.chat_id))).toContain(MIN.id);
    expect(tg.commands.map((c) => c.command)).toEqual(expect.arrayContaining(["new", "approve", "deny"]));
    // The platform's formatting hint is in the prompt.
    const system = (fake.requests.at(-1)?.body as { messages: ChatMessage[] } | undefined)?.messages[0];
    expect(textOf(system)).toContain("This chat is Telegram");
  }, 60_000);

  it("gives a stranger a pairing code and never reaches the model", async () => {
    const before = fake.requests.length;
    tg.send({ chat: dm(STRANGER), from: STRANGER, text: "let me in" });
    const [refusal] = await answered(STRANGER.id, (t) => t.includes("pairing code"));
    expect(refusal).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(fake.requests.length).toBe(before);
  }, 60_000);

  it("in a group answers only a mention or a reply to the bot, in the group", async () => {
    tg.send({ chat: GROUP, from: JO, text: "just chatting" });
    tg.send({ chat: GROUP, from: JO, text: "are you there?", mentionBot: true });
    await answered(GROUP.id, (t) => t.includes("are you there?"));
    const first = tg.messages(GROUP.id)[0];
    tg.send({ chat: GROUP, from: JO, text: "and this?", replyTo: first?.messageId ?? 0 });
    await answered(GROUP.id, (t) => t.includes("and this?"));
    expect(texts(GROUP.id).join("\n")).not.toContain("just chatting");
  }, 60_000);

  it("keeps forum topics apart: each is its own session and gets its replies", async () => {
    tg.send({ chat: FORUM, from: MIN, text: "topic one", threadId: 11, mentionBot: true });
    await answered(FORUM.id, (t) => t.includes("topic one"), 11);
    tg.send({ chat: FORUM, from: MIN, text: "topic two", threadId: 22, mentionBot: true });
    await answered(FORUM.id, (t) => t.includes("topic two"), 22);
    expect(texts(FORUM.id, 11).join()).not.toContain("topic two");
    // The second topic's request carries none of the first's history.
    const body = fake.requests.at(-1)?.body as { messages: ChatMessage[] } | undefined;
    const users = (body?.messages ?? []).filter((m) => m.role === "user").map(textOf);
    expect(users.join()).toContain("topic two");
    expect(users.join()).not.toContain("topic one");
  }, 60_000);

  it("asks for an approval with buttons; pressing Approve runs the command", async () => {
    tg.send({ chat: dm(MIN), from: MIN, text: "run danger" });
    await answered(MIN.id, (t) => t.startsWith("Approval needed"));
    const ask = tg.messages(MIN.id).find((m) => m.texts[0]?.startsWith("Approval needed"));
    // The ask is a new message (Telegram notifies of those, not of edits), and no status draft
    // ("waiting for the model") is left above it.
    expect(ask?.texts).toHaveLength(1);
    expect(ask?.texts[0]).toContain("rm -rf ./scratch-dir");
    expect(texts(MIN.id).filter((t) => t.startsWith("⏳"))).toEqual([]);
    const approve = ask?.buttons.find((b) => b.text === "Approve");
    expect(approve?.data).toMatch(/^ap:o:/);
    const press = tg.press(MIN.id, ask?.messageId ?? 0, approve?.data ?? "", MIN);
    await answered(MIN.id, (t) => t.startsWith("done:"));
    expect(texts(MIN.id)).toContain("approved (once)");
    expect(tg.callbackAnswered(press)).toBe(true);
  }, 60_000);

  it("saves a photo sent to the bot, tells the model where it is and shows it the picture", async () => {
    tg.send({ chat: dm(MIN), from: MIN, caption: "look", photo: CHART });
    // The message's content is text and a picture: the fake echoes it as JSON.
    await answered(MIN.id, (t) => t.startsWith("echo:") && t.includes("look"));
    const { last, said } = lastMessage(fake.requests.at(-1) as RecordedRequest);
    const path = /saved at (\S+)/.exec(said)?.[1] ?? "";
    expect(said).toContain("[image attached: photo-");
    expect(existsSync(path) && readFileSync(path).equals(CHART)).toBe(true);
    // The picture itself reaches the model, as an image part of the user's message.
    expect(JSON.stringify(last?.content)).toContain(`data:image/png;base64,${CHART.toString("base64")}`);
  }, 60_000);

  it("saves a document sent to the bot and names it to the model", async () => {
    tg.send({
      chat: dm(MIN),
      from: MIN,
      caption: "read this",
      document: { name: "notes.txt", bytes: Buffer.from("a,b\n1,2\n") },
    });
    await answered(MIN.id, (t) => t.startsWith("echo: read this"));
    const said = lastMessage(fake.requests.at(-1) as RecordedRequest).said;
    expect(said).toContain("[file attached: notes.txt, saved at ");
    const path = /saved at (\S+)/.exec(said)?.[1] ?? "";
    expect(readFileSync(path, "utf8")).toBe("a,b\n1,2\n");
  }, 60_000);

  it("sends a file the model asks for: a picture as a photo, other files as documents, in the topic", async () => {
    writeFileSync(join(gw.home, "work", "chart.png"), CHART);
    writeFileSync(join(gw.home, "work", "notes.csv"), "x,y\n1,2\n");
    tg.send({ chat: FORUM, from: MIN, text: "send the chart", threadId: 33, mentionBot: true });
    await answered(FORUM.id, (t) => t.startsWith("done:"), 33);
    const photo = tg.messages(FORUM.id, 33).find((m) => m.file);
    expect(photo?.file?.kind).toBe("photo");
    expect(photo?.file?.bytes.equals(CHART)).toBe(true);
    expect(photo?.texts[0]).toBe("the chart");
    tg.send({ chat: dm(MIN), from: MIN, text: "send the notes" });
    await answered(MIN.id, (t) => t.startsWith("done:") && t.includes("notes.csv"));
    const doc = tg.messages(MIN.id).find((m) => m.file?.name === "notes.csv");
    expect(doc?.file?.kind).toBe("document");
    expect(doc?.file?.bytes.toString()).toBe("x,y\n1,2\n");
    expect(tg.messages(MIN.id).filter((m) => m.file?.name === "notes.csv")).toHaveLength(1);
  }, 60_000);

  it("refuses a missing file naming it, and asks before sending a credential; denied, nothing is sent", async () => {
    tg.send({ chat: dm(MIN), from: MIN, text: "send the missing" });
    await answered(MIN.id, (t) => t.startsWith("done:") && t.includes("error"));
    const tool = (fake.requests.at(-1)?.body as { messages: ChatMessage[] } | undefined)?.messages.at(-1);
    expect(textOf(tool)).toMatch(/path: .*gone\.pdf/);
    tg.send({ chat: dm(MIN), from: MIN, text: "send the profile's env" });
    await answered(MIN.id, (t) => t.startsWith("Approval needed") && t.includes(".env"));
    tg.send({ chat: dm(MIN), from: MIN, text: "/deny" });
    await answered(MIN.id, (t) => t.startsWith("done:") && t.includes("not run"));
    expect(tg.messages(MIN.id).filter((m) => m.file?.name === ".env")).toEqual([]);
  }, 60_000);

  it("keeps updates sent while the gateway was down and answers them after the restart", async () => {
    expect(await gw.stop()).toBe(0);
    tg.send({ chat: dm(MIN), from: MIN, text: "while you were out" });
    expect(tg.pendingUpdates).toBeGreaterThan(0);
    await gw.start();
    await answered(MIN.id, (t) => t === "echo: while you were out");
  }, 60_000);

  it("skips a malformed update and keeps answering", async () => {
    tg.pushRaw({ message: { message_id: "x", chat: null } });
    tg.send({ chat: dm(MIN), from: MIN, text: "still there?" });
    await answered(MIN.id, (t) => t === "echo: still there?");
  }, 60_000);

  it("under a 429 storm delivers a streamed reply once and whole, nothing to the chat before retry_after", async () => {
    tg.floodWait("sendMessage", 1, 2);
    tg.floodWait("editMessageText", 1, 2);
    tg.floodWait("sendChatAction", 1, 1);
    const from = tg.calls.length;
    tg.send({ chat: dm(MIN), from: MIN, text: "storm" });
    await answered(MIN.id, (t) => t === STORM, undefined);
    const calls = tg.calls.slice(from).filter((c) => Number(c.params.chat_id) === MIN.id);
    expect(calls.filter((c) => c.status === 429).length).toBeGreaterThan(0);
    for (const [i, c] of calls.entries())
      if (c.status === 429)
        for (const later of calls.slice(i + 1)) expect(later.at - c.at).toBeGreaterThanOrEqual(1000 - 5);
    expect(texts(MIN.id).filter((t) => t === STORM)).toHaveLength(1);
  }, 60_000);

  it("a revoked token stops Telegram alone, and status says so", async () => {
    tg.revokeToken();
    const out: string[] = [];
    await until(
      () => {
        out.length = 0;
        gatewayStatus({ ...gatewayIo(gw.home, () => {}), out: (s) => out.push(s) });
        return out.join("");
      },
      (s) => s.includes("telegram: stopped"),
      "status to show telegram stopped",
    );
    expect(out.join("")).toMatch(/telegram: stopped since .*401 Unauthorized/);
    expect(out.join("")).toContain("webchat: running");
    // The web chat's address since the last start (the restart test started it again).
    const url = [...gw.err.matchAll(/web chat at (\S+)/g)].at(-1)?.[1] ?? "";
    // The web chat still answers (its login page, without a token).
    expect((await fetch(url)).status).toBeLessThan(500);
  }, 60_000);
});
