// Voice notes over Telegram end to end: a question spoken by espeak-ng arrives as an OGG/Opus
// voice note on the fake Bot API, is downloaded, transcribed by the fake LLM server's
// /v1/audio/transcriptions (it checks the audio is what was sent), shown back, answered as text
// and, since the chat spoke, as a voice note that ffprobe reads as OGG/Opus.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeTelegram,
  type RecordedRequest,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./e2e-gateway.js";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";
import { probe, skipWithoutVoiceTools, spokenOgg } from "./voice-tools.js";

const TOKEN = "4545:voice-secret";
const MIN = { id: 501, first_name: "Min", username: "min" };
const dm = { id: MIN.id, type: "private" as const };

describe.skipIf(skipWithoutVoiceTools())("voice notes over Telegram (espeak-ng, fake STT, ffprobe)", () => {
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let dir: TempDir;
  let gateway: { stop: () => void; running: Promise<number> };
  let err = "";
  const question = spokenOgg("What is the capital of France?");

  beforeAll(async () => {
    [tg, fake] = await Promise.all([FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    fake.setHandler((req: RecordedRequest) => ({ text: `echo: ${lastMessage(req).said}` }));
    // The fake "hears" the question only in the audio the user recorded.
    fake.setTranscriber((t) =>
      t.audio.equals(question) ? "What is the capital of France?" : "(unintelligible)",
    );
    dir = tempDir("iris-gw-voice");
    writeFileSync(join(dir.path, ".env"), `TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      "    telegram:",
      `      api_root: "${tg.apiRoot}"`,
      '      allowed_users: ["@min"]',
      "      poll_timeout_seconds: 1",
      "      voice:",
      `        stt: {base_url: "${fake.baseUrl}", model: whisper-1}`,
      "        show_transcript: true",
      "        tts: {provider: espeak, voice: en}",
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
    await Promise.all([tg?.close(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("transcribes a spoken question, shows the transcript, answers in text and with a valid OGG/Opus voice note", async () => {
    expect(err).not.toContain("not transcribed");
    expect(probe(question)).toMatchObject({ format: "ogg", codec: "opus" });
    tg.send({ chat: dm, from: MIN, voice: question });
    const sent = await until(
      () => tg.messages(MIN.id).filter((m) => !m.deleted),
      (ms) => ms.some((m) => m.voice),
      "a voice answer",
    );
    const texts = sent.map((m) => m.texts.at(-1) ?? "");
    expect(texts).toContain("🎤 What is the capital of France?");
    expect(texts).toContain("echo: What is the capital of France?");
    expect(fake.transcriptions).toHaveLength(1);
    expect(fake.transcriptions[0]?.model).toBe("whisper-1");
    const voice = sent.find((m) => m.voice)?.voice ?? Buffer.alloc(0);
    const p = probe(voice);
    expect(p).toMatchObject({ format: "ogg", codec: "opus" });
    expect(p.duration).toBeGreaterThan(0.5);
  }, 60_000);

  it("a typed message afterwards is answered in text only", async () => {
    tg.send({ chat: dm, from: MIN, text: "and now typed" });
    await until(
      () => tg.messages(MIN.id).map((m) => m.texts.at(-1) ?? ""),
      (t) => t.includes("echo: and now typed"),
      "the text answer",
    );
    expect(tg.messages(MIN.id).filter((m) => m.voice)).toHaveLength(1);
  }, 60_000);
});
