// Signal end to end: `iris gateway run` with the Signal platform against the fake signal-cli
// daemon. A DM from a user allowed by uuid is acknowledged with a reaction and answered; the
// account owner's group message from a linked device (a syncMessage) is answered in the group;
// an image reaches the model; a spoken question (espeak-ng) is transcribed by the fake STT and
// answered with text and an OGG/Opus voice note (ffprobe); a file the model sends goes as an
// attachment with its type and name, the caption as the message.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeSignal,
  type RecordedRequest,
  solidPng,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONE_PIXEL_PNG as PNG, until } from "./e2e-wait.js";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";
import { probe, skipWithoutVoiceTools, spokenOgg } from "./voice-tools.js";

const BOT = "+15550000001";
const MIN = "+821012345678";
const TEAM = "dGVhbS1ncm91cA==";

describe.skipIf(skipWithoutVoiceTools())("signal through the fake signal-cli daemon", () => {
  let sg: FakeSignal;
  let fake: FakeLlm;
  let dir: TempDir;
  let gateway: { stop: () => void; running: Promise<number> };
  let err = "";
  const question = spokenOgg("What time is it?");

  beforeAll(async () => {
    [sg, fake] = await Promise.all([
      FakeSignal.start({
        account: BOT,
        users: [{ number: MIN, name: "Min" }],
        groups: { [TEAM]: [BOT, MIN] },
      }),
      startFakeLlm(),
    ]);
    fake.setHandler((req: RecordedRequest) => {
      const { last, said } = lastMessage(req);
      if (last?.role === "tool") return { text: "sent it" };
      if (said === "send the chart")
        return { toolCalls: [{ name: "send_file", arguments: { path: "chart.png", caption: "the chart" } }] };
      return { text: `echo: ${said}` };
    });
    fake.setTranscriber((t) => (t.audio.equals(question) ? "What time is it?" : "(unintelligible)"));
    dir = tempDir("iris-gw-signal");
    writeFileSync(join(dir.path, ".env"), "");
    const min = sg.users[0]?.uuid ?? "";
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    signal: {url: "${sg.url}", account: "${BOT}", allowed_users: ["${min}", "${BOT}"], voice: {stt: {base_url: "${fake.baseUrl}"}, tts: {provider: espeak}}}`,
    ]);
    gateway = runGateway(dir.path, (s) => {
      err += s;
    });
    await until(
      () => err,
      (e) => e.includes("running (pid"),
      "the gateway to start",
    );
    await until(
      () => sg.listening,
      (n) => n > 0,
      "the event stream",
    );
  }, 60_000);

  afterAll(async () => {
    gateway?.stop();
    const code = await gateway?.running;
    await Promise.all([sg?.close(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("acknowledges a DM from a user allowed by uuid with a reaction and answers it", async () => {
    const ts = sg.userSends({ from: MIN, text: "hello there" });
    await until(
      () => sg.sentTo(MIN).map((s) => s.message),
      (m) => m.includes("echo: hello there"),
      "the answer",
    );
    expect(sg.reactions).toContainEqual({
      to: MIN,
      emoji: "👀",
      targetAuthor: sg.users[0]?.uuid,
      targetTimestamp: ts,
    });
  }, 60_000);

  it("answers the owner's group message from a linked device in the group", async () => {
    sg.linkedDeviceSends({ group: TEAM, text: "iris, status please" });
    const got = await until(
      () => sg.sentTo(TEAM).map((s) => s.message),
      (m) => m.length > 0,
      "the group answer",
    );
    expect(got[0]).toContain("status please");
    // The bot's own send does not come back as a message (no answer to itself).
    await new Promise((r) => setTimeout(r, 500));
    expect(sg.sentTo(TEAM)).toHaveLength(1);
  }, 60_000);

  it("gives an image to the model", async () => {
    const before = fake.requests.length;
    sg.userSends({
      from: MIN,
      text: "what is this?",
      attachments: [{ bytes: PNG, contentType: "image/png" }],
    });
    await until(
      () => sg.sentTo(MIN).length,
      (n) => n >= 2,
      "the image's answer",
    );
    const body = JSON.stringify(fake.requests.slice(before).map((r) => r.body));
    expect(body).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
  }, 60_000);

  it("transcribes a voice note and answers with text and an OGG/Opus voice note", async () => {
    sg.userSends({
      from: MIN,
      attachments: [{ bytes: question, contentType: "audio/ogg", voiceNote: true }],
    });
    const sent = await until(
      () => sg.sentTo(MIN),
      (s) => s.some((x) => x.attachments.length > 0),
      "a voice answer",
    );
    expect(sent.map((s) => s.message)).toContain("echo: What time is it?");
    const voice = sent.find((s) => s.attachments.length > 0)?.attachments[0];
    expect(voice?.contentType).toBe("audio/ogg");
    expect(probe(voice?.bytes ?? Buffer.alloc(0))).toMatchObject({ format: "ogg", codec: "opus" });
  }, 60_000);

  it("sends a file the model asks for as an attachment, with its type and name", async () => {
    const png = solidPng(3, 2, [10, 20, 200]);
    writeFileSync(join(dir.path, "work", "chart.png"), png);
    sg.userSends({ from: MIN, text: "send the chart" });
    const sent = await until(
      () => sg.sentTo(MIN),
      (s) => s.some((x) => x.attachments[0]?.filename === "chart.png"),
      "the file",
    );
    const file = sent.find((x) => x.attachments[0]?.filename === "chart.png");
    expect(file?.message).toBe("the chart");
    expect(file?.attachments[0]?.contentType).toBe("image/png");
    expect(file?.attachments[0]?.bytes.equals(png)).toBe(true);
  }, 60_000);
});
