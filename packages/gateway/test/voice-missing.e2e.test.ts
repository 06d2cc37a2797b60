// Voice notes configured on a machine without what they need: no STT endpoint, and no ffmpeg or
// espeak-ng on PATH. `iris gateway run` says so on the terminal at start, keeps running, and a
// voice note reaches the model as a saved file: an answer, not a failed turn.
import { type FakeLlm, FakeTelegram, type RecordedRequest, startFakeLlm, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eGateway, until } from "./e2e-gateway.js";
import { lastMessage } from "./profile.js";

const TOKEN = "4646:voice-missing-secret";
const MIN = { id: 501, first_name: "Min", username: "min" };

describe("voice notes without an STT endpoint, ffmpeg or espeak-ng", () => {
  // A PATH with nothing on it: the tools are "not installed" for this gateway.
  const empty = tempDir("iris-empty-path");
  const path = process.env.PATH;
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let gw: E2eGateway;

  beforeAll(async () => {
    [tg, fake] = await Promise.all([FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    fake.setHandler((req: RecordedRequest) => ({ text: `echo: ${lastMessage(req).said}` }));
    process.env.PATH = empty.path;
    gw = await E2eGateway.start("iris-gw-voice-missing", fake, `TELEGRAM_BOT_TOKEN=${TOKEN}\n`, [
      "gateway:",
      "  platforms:",
      `    telegram: {api_root: "${tg.apiRoot}", allowed_users: ["@min"], poll_timeout_seconds: 1, voice: {tts: {provider: espeak}}}`,
    ]);
  }, 60_000);

  afterAll(async () => {
    process.env.PATH = path;
    const code = await gw?.close();
    await Promise.all([tg?.close(), fake?.close()]);
    empty.cleanup();
    expect(code, gw?.err).toBe(0);
  }, 60_000);

  it("warns on the terminal at start, and a voice note is answered as a file", async () => {
    expect(gw.err).toContain(
      "iris gateway: warning: telegram: voice notes are not transcribed: no voice.stt endpoint is configured",
    );
    expect(gw.err).toMatch(
      /iris gateway: warning: telegram: voice answers are off: (ffmpeg|espeak-ng) is not installed/,
    );
    tg.send({
      chat: { id: MIN.id, type: "private" },
      from: MIN,
      voice: Buffer.from("OggS not really audio"),
    });
    const texts = await until(
      () => tg.messages(MIN.id).map((m) => m.texts.at(-1) ?? ""),
      (t) => t.some((x) => x.startsWith("echo: ")),
      "the answer",
    );
    expect(texts.find((x) => x.startsWith("echo: "))).toMatch(/voice note attached: .*not transcribed/);
    expect(tg.messages(MIN.id).filter((m) => m.voice)).toHaveLength(0);
  }, 60_000);
});
