// The gateway over Slack's HTTP Events API: Bolt's receiver on a port of its own, the fake Slack
// posting signed deliveries to it. A bad signature or a stale timestamp is a 401 that runs
// nothing; a retried delivery (x-slack-retry-num) is answered once.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, FakeSlack, slackSignature, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./e2e-gateway.js";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";

const BOT_TOKEN = "xoxb-2-fake-bot-secret-part";
const SECRET = "fake-signing-secret-part";

describe("gateway over Slack (fake Slack, HTTP Events API)", () => {
  let sl: FakeSlack;
  let fake: FakeLlm;
  let dir: TempDir;
  let stopGateway: () => void;
  let running: Promise<number>;
  let err = "";
  let min = "";
  let dm = "";
  const texts = () => sl.botMessages(dm).map((m) => m.texts.at(-1) ?? "");

  beforeAll(async () => {
    [sl, fake] = await Promise.all([
      FakeSlack.start({ botToken: BOT_TOKEN, signingSecret: SECRET }),
      startFakeLlm(),
    ]);
    fake.setHandler((req) => ({ text: `echo: ${lastMessage(req).said}` }));
    min = sl.addUser("Min");
    dm = sl.dm(min);
    dir = tempDir("iris-gw-slack-http");
    writeFileSync(join(dir.path, ".env"), `SLACK_BOT_TOKEN=${BOT_TOKEN}\nSLACK_SIGNING_SECRET=${SECRET}\n`);
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    slack: {mode: http, http_port: 0, api_url: "${sl.apiUrl}", allowed_users: ["${min}"]}`,
    ]);
    ({ stop: stopGateway, running } = runGateway(dir.path, (s) => {
      err += s;
    }));
    const started = await until(
      () => /events endpoint on port (\d+)/.exec(err)?.[1],
      (p) => p !== undefined,
      "the events endpoint",
    );
    sl.deliverTo(`http://127.0.0.1:${started}/slack/events`);
  }, 60_000);

  afterAll(async () => {
    stopGateway?.();
    const code = await running;
    await Promise.all([sl?.close(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
    expect(err).not.toContain("secret-part");
  }, 60_000);

  it("answers a signed event", async () => {
    sl.send({ channel: dm, user: min, text: "hello over http" });
    await until(texts, (t) => t.includes("echo: hello over http"), "the reply");
  }, 60_000);

  it("a bad signature or a stale timestamp is a 401 and nothing runs", async () => {
    const before = fake.requests.length;
    const forged = sl.signedEvent("forged", dm, min);
    const status = await sl.postRaw(forged.body.replace("forged", "changed"), forged.headers);
    expect(status).toBe(401);
    const stale = sl.signedEvent("stale", dm, min);
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect(
      await sl.postRaw(stale.body, {
        "x-slack-request-timestamp": old,
        "x-slack-signature": slackSignature(SECRET, old, stale.body),
      }),
    ).toBe(401);
    // A good one after them is answered, and it is the only new question.
    sl.send({ channel: dm, user: min, text: "after the forgeries" });
    await until(texts, (t) => t.includes("echo: after the forgeries"), "the reply");
    expect(fake.requests.length).toBe(before + 1);
    expect(texts().join("\n")).not.toMatch(/changed|stale/);
  }, 60_000);

  it("a delivery retried with x-slack-retry-num is answered once", async () => {
    sl.send({ channel: dm, user: min, text: "retried" });
    sl.redeliverLast();
    await until(texts, (t) => t.includes("echo: retried"), "the reply");
    await new Promise((r) => setTimeout(r, 500));
    expect(texts().filter((t) => t === "echo: retried")).toHaveLength(1);
  }, 60_000);
});
