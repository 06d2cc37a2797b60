import { describe, expect, it } from "vitest";
import { voiceSchema } from "./config.js";
import { isOggOpus, Speech } from "./speech.js";

describe("voice set-up", () => {
  it("warns at start-up of what is missing, and turns off only what needs it", () => {
    const cfg = voiceSchema.parse({ tts: { provider: "espeak" } });
    const s = new Speech(cfg, {}, "telegram", (cmd) => cmd !== "ffmpeg");
    expect(s.warnings()).toEqual([
      "telegram: voice notes are not transcribed: no voice.stt endpoint is configured",
      "telegram: voice answers are off: ffmpeg is not installed (apt-get install ffmpeg)",
    ]);
    expect(s.canTranscribe).toBe(false);
    expect(s.canSpeak).toBe(false);
    const ok = new Speech(
      voiceSchema.parse({ stt: { base_url: "http://127.0.0.1:9/v1" }, tts: { provider: "espeak" } }),
      {},
      "telegram",
      () => true,
    );
    expect(ok.warnings()).toEqual([]);
    expect(ok.canTranscribe && ok.canSpeak).toBe(true);
  });

  it("a remote TTS needs no local tools; a bad provider is a config error", () => {
    const remote = voiceSchema.parse({
      tts: { provider: "openai_compatible", base_url: "http://127.0.0.1:9/v1" },
    });
    expect(new Speech(remote, {}, "telegram", () => false).canSpeak).toBe(true);
    expect(voiceSchema.safeParse({ tts: { provider: "festival" } }).success).toBe(false);
  });

  it("tells OGG/Opus from other audio", () => {
    expect(isOggOpus(Buffer.from("OggS\0\x02........OpusHead"))).toBe(true);
    expect(isOggOpus(Buffer.from("OggS\0\x02........vorbis"))).toBe(false);
    expect(isOggOpus(Buffer.from("RIFF....WAVE"))).toBe(false);
  });
});
