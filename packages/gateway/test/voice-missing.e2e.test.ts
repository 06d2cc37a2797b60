// Voice notes configured on a machine without what they need: no STT endpoint, and no ffmpeg or
// espeak-ng on PATH. `iris gateway run` says so on the terminal at start, keeps running, and a
// voice note reaches the model as a saved file: an answer, not a failed turn.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, FakeTelegram, type RecordedRequest, startFakeLlm, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./e2e-gateway.js";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";

const TOKEN = "4646:voice-missing-secret";
const MIN = { id: 501, first_name: "Min", username: "min" };

describe("voice notes without an STT endpoint, ffmpeg or espeak-ng", () => {
  const dir = tempDir("iris-gw-voice-missing");
  const path = process.env.PATH;
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let gateway: { stop: () => void; running: Promise<number> };
  let err = "";

  beforeAll(async () => {
    [tg, fake] = await Promise.all([FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    fake.setHandler((req: RecordedRequest) => ({ text: `echo: ${lastMessage(req).said}` }));
    writeFileSync(join(dir.path, ".env"), `TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    telegram: {api_root: "${tg.apiRoot}", allowed_users: ["@min"], poll_timeout_seconds: 1, voice: {tts: {provider: espeak}}}`,
    ]);
    // A PATH with nothing on it: the tools are "not installed" for this gateway.
    const empty = join(dir.path, "empty-bin");
    mkdirSync(empty);
    process.env.PATH = empty;
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
    process.env.PATH = path;
    gateway?.stop();
    const code = await gateway?.running;
    await Promise.all([tg?.close(), fake?.close()]);
    dir.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("warns on the terminal at start, and a voice note is answered as a file", async () => {
    expect(err).toContain(
      "iris gateway: warning: telegram: voice notes are not transcribed: no voice.stt endpoint is configured",
    );
    expect(err).toMatch(
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
