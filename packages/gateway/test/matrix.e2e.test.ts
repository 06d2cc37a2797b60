import { type FakeLlm, FakeMatrix, type RecordedRequest, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eGateway, until } from "./e2e-gateway.js";
import { type ChatMessage, lastMessage, textOf } from "./profile.js";

const BOT = "@iris:fake.test";
const MIN = "@min:fake.test";
const DM = "!dm:fake.test";
const TEAM = "!team:fake.test";
const STORM = `${"storm ".repeat(200)}END`;

describe("gateway over Matrix (fake homeserver)", () => {
  let mx: FakeMatrix;
  let fake: FakeLlm;
  let gw: E2eGateway;
  const texts = (room: string) => mx.botMessages(room).map((m) => m.text);

  beforeAll(async () => {
    [mx, fake] = await Promise.all([
      FakeMatrix.start({
        botUserId: BOT,
        token: "mx-secret-token",
        rooms: { [DM]: [BOT, MIN], [TEAM]: [BOT, MIN, "@jo:fake.test"] },
      }),
      startFakeLlm(),
    ]);
    fake.setHandler((req: RecordedRequest) => {
      const { said } = lastMessage(req);
      return said.endsWith("storm") ? { text: STORM, chunkSize: 50 } : { text: `echo: ${said}` };
    });
    gw = await E2eGateway.start("iris-gw-matrix", fake, "MATRIX_ACCESS_TOKEN=mx-secret-token\n", [
      "gateway:",
      "  platforms:",
      `    matrix: {homeserver: "${mx.baseUrl}", user_id: "${BOT}", allowed_users: ["${MIN}", "@jo:fake.test"]}`,
    ]);
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([mx?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain("mx-secret-token");
  }, 60_000);

  it("answers a DM, and in a room only a mention", async () => {
    mx.userSends(DM, MIN, "hello");
    await until(
      () => texts(DM),
      (t) => t.includes("echo: hello"),
      "the DM answer",
    );
    mx.userSends(TEAM, MIN, "just chatting");
    mx.userSends(TEAM, MIN, "iris: are you there?", { "m.mentions": { user_ids: [BOT] } });
    await until(
      () => texts(TEAM),
      (t) => t.some((x) => x.includes("are you there?")),
      "the room answer",
    );
    expect(texts(TEAM).join()).not.toContain("just chatting");
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("This chat is Matrix");
  }, 60_000);

  it("a reply streams into one message edited in place (m.replace), whole at the end", async () => {
    mx.userSends(DM, MIN, "storm");
    await until(
      () => texts(DM),
      (t) => t.includes(STORM),
      "the streamed answer",
    );
    expect(texts(DM).filter((t) => t.startsWith("storm"))).toEqual([STORM]);
    const streamed = mx.botMessages(DM).find((m) => m.text === STORM)?.eventId;
    const edits = mx.events.filter(
      (e) =>
        (e.content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined)?.event_id ===
        streamed,
    );
    expect(edits.length).toBeGreaterThan(0);
  }, 60_000);

  it("a thread is its own session, answered in the thread", async () => {
    const root = mx.userSends(TEAM, MIN, "iris: start a thread", { "m.mentions": { user_ids: [BOT] } });
    await until(
      () => texts(TEAM),
      (t) => t.some((x) => x.includes("start a thread")),
      "the root answer",
    );
    mx.userSends(TEAM, MIN, "inside the thread", {
      "m.mentions": { user_ids: [BOT] },
      "m.relates_to": {
        rel_type: "m.thread",
        event_id: root,
        is_falling_back: true,
        "m.in_reply_to": { event_id: root },
      },
    });
    const reply = await until(
      () => mx.botMessages(TEAM).find((m) => m.text.includes("inside the thread")),
      (m) => m !== undefined,
      "the thread answer",
    );
    expect(reply?.content["m.relates_to"]).toMatchObject({ rel_type: "m.thread", event_id: root });
    const users = ((fake.requests.at(-1)?.body as { messages?: ChatMessage[] } | undefined)?.messages ?? [])
      .filter((m) => m.role === "user")
      .map(textOf)
      .join();
    expect(users).not.toContain("are you there?");
  }, 60_000);

  it("after a restart answers what was said meanwhile once, and nothing again", async () => {
    expect(await gw.stop()).toBe(0);
    const before = mx.botMessages(DM).length;
    mx.userSends(DM, MIN, "while you were away");
    await gw.start();
    await until(
      () => texts(DM),
      (t) => t.includes("echo: while you were away"),
      "the answer after the restart",
    );
    mx.userSends(DM, MIN, "and now");
    await until(
      () => texts(DM),
      (t) => t.includes("echo: and now"),
      "the next answer",
    );
    expect(mx.botMessages(DM).length).toBe(before + 2);
    expect(texts(DM).filter((t) => t === "echo: hello")).toHaveLength(1);
  }, 60_000);
});
