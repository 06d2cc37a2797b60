// Voice through OpenAI-compatible endpoints (the fake LLM server's /v1/audio/speech and
// /v1/audio/transcriptions): the speech made is OGG/Opus by ffprobe, the key goes to base_url.
import { startFakeLlm } from "@iris/testkit";
import { describe, expect, it } from "vitest";
import { voiceSchema } from "../src/platforms/voice/config.js";
import { Speech } from "../src/platforms/voice/speech.js";
import { probe, skipWithoutVoiceTools } from "./voice-tools.js";

describe.skipIf(skipWithoutVoiceTools())("voice through OpenAI-compatible endpoints", () => {
  it("speaks through /audio/speech as OGG/Opus and transcribes through /audio/transcriptions, with the key", async () => {
    const fake = await startFakeLlm({ apiKey: "voice-key" });
    try {
      fake.setTranscriber((t) => `heard ${t.audio.length} bytes in ${t.language}`);
      const cfg = voiceSchema.parse({
        stt: { base_url: fake.baseUrl, api_key_env: "VOICE_KEY", language: "ko" },
        tts: {
          provider: "openai_compatible",
          base_url: fake.baseUrl,
          voice: "nova",
          api_key_env: "VOICE_KEY",
        },
      });
      const speech = new Speech(cfg, { VOICE_KEY: "voice-key" }, "test");
      const ogg = await speech.speak("안녕하세요");
      expect(fake.speeches).toEqual([{ model: "tts-1", voice: "nova", input: "안녕하세요", format: "opus" }]);
      expect(probe(ogg)).toMatchObject({ format: "ogg", codec: "opus" });
      expect(await speech.transcribe(ogg, "a.ogg")).toBe(`heard ${ogg.length} bytes in ko`);
      // A wrong key is a clear error naming the status, not a silent empty transcript.
      const wrong = new Speech(cfg, { VOICE_KEY: "nope" }, "test");
      await expect(wrong.transcribe(ogg, "a.ogg")).rejects.toThrow(/HTTP 401/);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
