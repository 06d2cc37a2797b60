// The gateway end to end over Mattermost: `iris gateway run` with @mattermost/client inside the
// adapter against the fake Mattermost in testkit and the fake LLM server. The token comes from
// the profile's .env.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeMattermost,
  type RecordedRequest,
  type Step,
  solidPng,
  startFakeLlm,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayStatus } from "../src/commands.js";
import { E2eGateway, until } from "./e2e-gateway.js";
import { type ChatMessage, gatewayIo, lastMessage, textOf } from "./profile.js";

const TOKEN = "mm-e2e-secret-token";
const STORM = `${"storm ".repeat(200)}END`;
const CHART = solidPng(4, 3, [30, 200, 30]);

function reply(req: RecordedRequest): Step {
  const { last, said: raw } = lastMessage(req);
  // A message with an image is parts: its text part is what was said.
  const said = Array.isArray(last?.content)
    ? ((last.content as { type: string; text?: string }[]).find((p) => p.type === "text")?.text ?? "")
    : raw;
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("storm")) return { text: STORM, chunkSize: 50 };
  if (said.endsWith("send the chart"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "chart.png", caption: "the chart" } }] };
  return { text: `echo: ${said}` };
}

/** What the model was shown of the users' side, joined. */
const userSide = (req: RecordedRequest | undefined) =>
  ((req?.body as { messages?: ChatMessage[] } | undefined)?.messages ?? [])
    .filter((m) => m.role === "user")
    .map(textOf)
    .join("\n");

describe("gateway over Mattermost (fake server)", () => {
  let mm: FakeMattermost;
  let fake: FakeLlm;
  let gw: E2eGateway;
  let min = "";
  let dm = "";
  let town = "";
  const texts = (channel: string, rootId?: string) => mm.botPosts(channel, rootId).map((p) => p.message);
  const answered = (channel: string, ok: (t: string) => boolean, rootId?: string) =>
    until(
      () => texts(channel, rootId),
      (t) => t.some(ok),
      `a reply in ${channel}`,
    );

  beforeAll(async () => {
    [mm, fake] = await Promise.all([FakeMattermost.start({ token: TOKEN }), startFakeLlm()]);
    fake.setHandler(reply);
    min = mm.addUser("min");
    const jo = mm.addUser("jo");
    dm = mm.dm(min);
    town = mm.addChannel("town-square", [min, jo]);
    gw = await E2eGateway.start("iris-gw-mattermost", fake, `MATTERMOST_TOKEN=${TOKEN}\n`, [
      "gateway:",
      "  platforms:",
      `    mattermost: {url: "${mm.url}", allowed_users: ["min", "${jo}"]}`,
    ]);
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([mm?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain(TOKEN);
  }, 60_000);

  it("answers an allowed user's DM, typing first, with the platform's formatting hint in the prompt", async () => {
    mm.userPosts({ channel: dm, user: min, message: "hello" });
    await answered(dm, (t) => t === "echo: hello");
    expect(mm.typing.some((t) => t.channelId === dm)).toBe(true);
    const system = (fake.requests.at(-1)?.body as { messages: ChatMessage[] } | undefined)?.messages[0];
    expect(textOf(system)).toContain("This chat is Mattermost");
    // A streamed reply is one post, edited as it grows, whole at the end.
    mm.userPosts({ channel: dm, user: min, message: "storm" });
    await answered(dm, (t) => t === STORM);
    expect(texts(dm).filter((t) => t.startsWith("storm"))).toEqual([STORM]);
  }, 60_000);

  it("gives a stranger a pairing code and never reaches the model", async () => {
    const stranger = mm.addUser("stranger");
    const sdm = mm.dm(stranger);
    const calls = fake.requests.length;
    mm.userPosts({ channel: sdm, user: stranger, message: "let me in" });
    await answered(sdm, (t) => /pairing code is [A-Z0-9]{8}/.test(t));
    expect(fake.requests.length).toBe(calls);
  }, 60_000);

  it("in a channel answers only a mention, in the post's thread; a thread is its own session", async () => {
    mm.userPosts({ channel: town, user: min, message: "just chatting" });
    const root = mm.userPosts({ channel: town, user: min, message: "@iris remember the word kiwi" });
    await answered(town, (t) => t.includes("remember the word kiwi"), root);
    mm.userPosts({ channel: town, user: min, message: "@iris what was the word?", rootId: root });
    await answered(town, (t) => t.includes("what was the word?"), root);
    expect(userSide(fake.requests.at(-1))).toContain("kiwi");
    const other = mm.userPosts({ channel: town, user: min, message: "@iris a new topic" });
    await answered(town, (t) => t.includes("a new topic"), other);
    expect(userSide(fake.requests.at(-1))).not.toContain("kiwi");
    expect(texts(town).join("\n")).not.toContain("just chatting");
  }, 60_000);

  it("gives an attached image to the model and names a saved file", async () => {
    const png = solidPng(4, 4);
    const before = fake.requests.length;
    mm.userPosts({
      channel: dm,
      user: min,
      message: "what is in this picture",
      files: [
        { name: "dot.png", mime: "image/png", bytes: png },
        { name: "t.csv", mime: "text/csv", bytes: Buffer.from("a,b\n") },
      ],
    });
    await answered(dm, (t) => t.startsWith("echo: what is in this picture"));
    expect(texts(dm).find((t) => t.startsWith("echo: what is in this picture"))).toMatch(
      /file attached: t\.csv, saved at .*\(4 bytes\)/,
    );
    const sent = JSON.stringify(fake.requests.slice(before).map((r) => r.body));
    expect(sent).toContain(`data:image/png;base64,${png.toString("base64")}`);
  }, 60_000);

  it("a dropped WebSocket is resumed with what was said meanwhile, answered once", async () => {
    const resumes = mm.resumes;
    mm.dropConnections();
    mm.userPosts({ channel: dm, user: min, message: "while the socket was down" });
    await answered(dm, (t) => t === "echo: while the socket was down");
    expect(mm.resumes).toBeGreaterThan(resumes);
    expect(texts(dm).filter((t) => t === "echo: while the socket was down")).toHaveLength(1);
  }, 60_000);

  it("a server that forgot the connection (a restart) is caught up over REST, once", async () => {
    const connections = mm.connections;
    mm.forgetConnections();
    mm.userPosts({ channel: dm, user: min, message: "while the server restarted" });
    await answered(dm, (t) => t === "echo: while the server restarted");
    expect(mm.connections).toBeGreaterThan(connections);
    mm.userPosts({ channel: dm, user: min, message: "and after" });
    await answered(dm, (t) => t === "echo: and after");
    expect(texts(dm).filter((t) => t === "echo: while the server restarted")).toHaveLength(1);
  }, 60_000);

  it("sends a file the model asks for: uploaded to the channel, then posted in the thread", async () => {
    writeFileSync(join(gw.home, "work", "chart.png"), CHART);
    const root = mm.userPosts({ channel: town, user: min, message: "@iris send the chart" });
    await answered(town, (t) => t.startsWith("done:"), root);
    const shared = mm.botPosts(town, root).filter((p) => p.files.length);
    expect(shared).toHaveLength(1);
    expect(shared[0]?.message).toBe("the chart");
    expect(shared[0]?.files).toEqual([{ name: "chart.png", mime: "image/png", bytes: CHART }]);
  }, 60_000);

  it("a restart of the gateway mid-conversation: what was said meanwhile is answered once, nothing twice", async () => {
    const root = mm.userPosts({ channel: town, user: min, message: "@iris a thread before the restart" });
    await answered(town, (t) => t.includes("a thread before the restart"), root);
    const before = { dm: texts(dm).length, town: texts(town).length };
    expect(await gw.stop()).toBe(0);
    mm.userPosts({ channel: dm, user: min, message: "while you were away" });
    mm.userPosts({ channel: town, user: min, message: "@iris and in the thread", rootId: root });
    await gw.start();
    await answered(dm, (t) => t === "echo: while you were away");
    await answered(town, (t) => t.includes("and in the thread"), root);
    mm.userPosts({ channel: dm, user: min, message: "and now" });
    await answered(dm, (t) => t === "echo: and now");
    expect(texts(dm).length).toBe(before.dm + 2);
    expect(texts(town).length).toBe(before.town + 1);
    expect(texts(dm).filter((t) => t === "echo: hello")).toHaveLength(1);
  }, 90_000);

  it("a revoked token stops Mattermost, and status says so", async () => {
    mm.revokeToken();
    const out: string[] = [];
    await until(
      () => {
        out.length = 0;
        gatewayStatus({ ...gatewayIo(gw.home, () => {}), out: (s) => out.push(s) });
        return out.join("");
      },
      (s) => s.includes("mattermost: stopped"),
      "status to show mattermost stopped",
    );
    expect(out.join("")).toMatch(/mattermost: stopped since .*MATTERMOST_TOKEN was refused \(401\)/);
  }, 60_000);
});
