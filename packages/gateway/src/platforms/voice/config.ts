// The `voice:` section a platform with voice notes takes (SPEC G1; this folder is no platform, it
// has no plugin.ts; its zod-only config.ts loads with the platforms' schemas): speech-to-text through an
// OpenAI-compatible /v1/audio/transcriptions endpoint (whisper.cpp's server, speaches, hosted
// ones), and text-to-speech by espeak-ng on this machine or an OpenAI-compatible /v1/audio/speech.
import { z } from "zod";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");
const baseUrl = z
  .url({ protocol: /^https?$/ })
  .describe("The API's base URL, e.g. http://127.0.0.1:8080/v1.");
const keyEnv = envName
  .optional()
  .describe("The environment variable (or .env key) with the API key, sent to base_url only (none: no key).");

export const voiceSchema = z
  .strictObject({
    stt: z
      .strictObject({
        base_url: baseUrl,
        model: z.string().min(1).default("whisper-1").describe("The transcription model."),
        api_key_env: keyEnv,
        language: z.string().min(2).optional().describe("The spoken language (ISO 639-1), when known."),
      })
      .optional()
      .describe("Speech-to-text: voice notes are transcribed and answered as text."),
    show_transcript: z
      .boolean()
      .default(false)
      .describe("Show the transcript back in the chat before the answer."),
    tts: z
      .discriminatedUnion("provider", [
        z.strictObject({
          provider: z.literal("espeak"),
          voice: z.string().min(1).default("en").describe("An espeak-ng voice (en, ko, de, …)."),
        }),
        z.strictObject({
          provider: z.literal("openai_compatible"),
          base_url: baseUrl,
          model: z.string().min(1).default("tts-1"),
          voice: z.string().min(1).default("alloy"),
          api_key_env: keyEnv,
        }),
      ])
      .optional()
      .describe("Text-to-speech: answers as voice notes (OGG/Opus)."),
    reply_with_voice: z
      .enum(["voice_in", "always"])
      .default("voice_in")
      .describe(
        "voice_in: a voice answer (beside the text) when the chat's last message was a voice note; always: to every answer.",
      ),
  })
  .describe("Voice notes in and out.");

export type VoiceConfig = z.output<typeof voiceSchema>;
