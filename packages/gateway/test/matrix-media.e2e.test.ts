// Matrix media and voice end to end: `iris gateway run` against the fake homeserver. An m.image
// reaches the model as an image, an m.file is saved and named to it, and a spoken question
// (espeak-ng) sent as m.audio with the voice flag is fetched from the authenticated media API,
// transcribed by the fake STT and answered with text and a voice message: uploaded to the media
// repository and sent as m.audio with org.matrix.msc3245.voice, OGG/Opus by ffprobe. A file the
// model sends (send_file) is uploaded and sent as m.image or m.file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeMatrix,
  type RecordedRequest,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONE_PIXEL_PNG as PNG, until } from "./e2e-wait.js";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";
import { probe, skipWithoutVoiceTools, spokenOgg } from "./voice-tools.js";

const BOT = "@iris:fake.test";
const MIN = "@min:fake.test";
const DM = "!dm:fake.test";

describe.skipIf(skipWithoutVoiceTools())("matrix media and voice messages", () => {
  let mx: FakeMatrix;
  let fake: FakeLlm;
  let dir: TempDir;
  let gateway: { stop: () => void; running: Promise<number> };
  let err = "";
  const question = spokenOgg("What is the weather like?");

  beforeAll(async () => {
    [mx, fake] = await Promise.all([
      FakeMatrix.start({ botUserId: BOT, token: "mx-secret-token", rooms: { [DM]: [BOT, MIN] } }),
      startFakeLlm(),
    ]);
    fake.setHandler((req: RecordedRequest) => {
      const { last, said } = lastMessage(req);
      if (last?.role === "tool") return { text: "sent" };
      const file = /^send (\S+)$/.exec(said)?.[1];
      if (file)
        return { toolCalls: [{ name: "send_file", arguments: { path: file, caption: `here is ${file}` } }] };
      return { text: `echo: ${said}` };
    });
    fake.setTranscriber((t) => (t.audio.equals(question) ? "What is the weather like?" : "(unintelligible)"));
    dir = tempDir("iris-gw-matrix-media");
    writeFileSync(join(dir.path, ".env"), "MATRIX_ACCESS_TOKEN=mx-secret-token\n");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    matrix: {homeserver: "${mx.baseUrl}", user_id: "${BOT}", allowed_users: ["${MIN}"], voice: {stt: {base_url: "${fake.baseUrl}"}, tts: {provider: espeak}}}`,
    ]);
    gateway = runGateway(dir.path, (s) => {
      err += s;
    });
    await until(
      () => err,
      (e) => e.includes("running (pid"),
      "the gateway to start",
    );
  }, 60_000);

  afterAll(async () => {
    gateway?.stop();
    const code = await gateway?.running;
    await Promise.all([mx?.close(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
    expect(err).not.toContain("mx-secret-token");
  }, 60_000);

  it("gives an m.image to the model and names a saved m.file", async () => {
    const before = fake.requests.length;
    mx.userSendsMedia(DM, MIN, { msgtype: "m.image", bytes: PNG, mime: "image/png", filename: "dot.png" });
    await until(
      () => mx.botMessages(DM).map((m) => m.text),
      (t) => t.some((x) => x.startsWith("echo: ")),
      "the image's answer",
    );
    expect(JSON.stringify(fake.requests.slice(before).map((r) => r.body))).toContain(
      `data:image/png;base64,${PNG.toString("base64")}`,
    );
    mx.userSendsMedia(DM, MIN, {
      msgtype: "m.file",
      bytes: Buffer.from("a,b\n1,2\n"),
      mime: "text/csv",
      filename: "t.csv",
    });
    const texts = await until(
      () => mx.botMessages(DM).map((m) => m.text),
      (t) => t.some((x) => x.includes("t.csv")),
      "the file's answer",
    );
    expect(texts.find((x) => x.includes("t.csv"))).toMatch(/file attached: t\.csv, saved at .*\(8 bytes\)/);
  }, 60_000);

  it("transcribes a voice message and answers with text and an OGG/Opus voice message", async () => {
    mx.userSendsMedia(DM, MIN, {
      msgtype: "m.audio",
      bytes: question,
      mime: "audio/ogg",
      filename: "voice.ogg",
      voice: true,
    });
    const msgs = await until(
      () => mx.botMessages(DM),
      (m) => m.some((x) => x.content.msgtype === "m.audio"),
      "a voice answer",
    );
    expect(msgs.map((m) => m.text)).toContain("echo: What is the weather like?");
    const voice = msgs.find((m) => m.content.msgtype === "m.audio")?.content ?? {};
    expect(voice).toHaveProperty("org.matrix.msc3245.voice");
    const file = mx.media.get(String(voice.url));
    expect(file?.mime).toBe("audio/ogg");
    expect(probe(file?.bytes ?? Buffer.alloc(0))).toMatchObject({ format: "ogg", codec: "opus" });
  }, 60_000);

  it("sends the files the model asks for: a picture as m.image, anything else as m.file", async () => {
    const csv = Buffer.from("a,b\n3,4\n");
    writeFileSync(join(dir.path, "work", "chart.png"), PNG);
    writeFileSync(join(dir.path, "work", "data.csv"), csv);
    for (const name of ["chart.png", "data.csv"]) {
      mx.userSends(DM, MIN, `send ${name}`);
      await until(
        () => mx.botMessages(DM).filter((m) => m.content.filename === name),
        (m) => m.length === 1,
        `${name} sent`,
      );
    }
    const sent = mx.botMessages(DM).filter((m) => typeof m.content.filename === "string");
    expect(sent.map((m) => [m.content.msgtype, m.content.body])).toEqual([
      ["m.image", "here is chart.png"],
      ["m.file", "here is data.csv"],
    ]);
    expect(mx.media.get(String(sent[0]?.content.url))).toMatchObject({ bytes: PNG, mime: "image/png" });
    expect(mx.media.get(String(sent[1]?.content.url))).toMatchObject({ bytes: csv, mime: "text/csv" });
  }, 60_000);
});
