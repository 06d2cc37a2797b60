// Voice notes (SPEC G1): transcription through an OpenAI-compatible /audio/transcriptions
// (multipart), and speech made by espeak-ng (WAV, turned into OGG/Opus by ffmpeg: what Telegram
// and WhatsApp show as a voice bubble) or fetched from an OpenAI-compatible /audio/speech as Opus.
// What is missing (an STT endpoint, ffmpeg, espeak-ng) is said once at start-up; a voice note then
// reaches the model as a file, never as a failed turn.
import { spawn, spawnSync } from "node:child_process";
import type { VoiceConfig } from "./config.js";

/** Speech is made of the first part of a long answer only (a voice note is for listening). */
const MAX_SPOKEN = 1500;
const TIMEOUT_MS = 60_000;

const installed = (cmd: string) => spawnSync(cmd, ["-version"], { stdio: "ignore" }).error === undefined;

/** OGG with an Opus stream (the first page names the codec). */
export function isOggOpus(b: Buffer): boolean {
  const head = b.subarray(0, 200).toString("latin1");
  return head.startsWith("OggS") && head.includes("OpusHead");
}

/** Runs a command with `input` on stdin; its stdout, or an Error with its stderr. */
function pipe(cmd: string, args: string[], input: Buffer | string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d) => {
      err = (err + d).slice(-500);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd}: ${e.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${cmd} exited with ${code}: ${err.trim()}`));
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

const toOggOpus = (audio: Buffer) =>
  pipe(
    "ffmpeg",
    [
      "-hide_banner",
      "-loglevel",
      "error",
      "-i",
      "pipe:0",
      "-c:a",
      "libopus",
      "-b:a",
      "32k",
      "-f",
      "ogg",
      "pipe:1",
    ],
    audio,
  );

export class Speech {
  readonly canTranscribe: boolean;
  readonly canSpeak: boolean;
  private readonly problems: string[] = [];

  constructor(
    readonly config: VoiceConfig,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly where: string,
    has: (cmd: string) => boolean = installed,
  ) {
    this.canTranscribe = config.stt !== undefined;
    if (!config.stt)
      this.problems.push("voice notes are not transcribed: no voice.stt endpoint is configured");
    const tts = config.tts;
    let speak = tts !== undefined;
    if (tts?.provider === "espeak") {
      for (const cmd of ["espeak-ng", "ffmpeg"])
        if (!has(cmd)) {
          speak = false;
          this.problems.push(`voice answers are off: ${cmd} is not installed (apt-get install ${cmd})`);
        }
    }
    this.canSpeak = speak;
  }

  /** What cannot work as configured, one line each, for the start-up log. */
  warnings(): string[] {
    return this.problems.map((p) => `${this.where}: ${p}`);
  }

  /** The audio's text, from the STT endpoint. */
  async transcribe(audio: Buffer, filename: string): Promise<string> {
    const stt = this.config.stt;
    if (!stt) throw new Error("no voice.stt endpoint is configured");
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(audio)], { type: "audio/ogg" }), filename);
    form.append("model", stt.model);
    form.append("response_format", "json");
    if (stt.language) form.append("language", stt.language);
    const res = await fetch(`${stt.base_url.replace(/\/+$/, "")}/audio/transcriptions`, {
      method: "POST",
      body: form,
      headers: this.auth(stt.api_key_env),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`the STT endpoint answered HTTP ${res.status}: ${body.slice(0, 200)}`);
    const text = (JSON.parse(body) as { text?: unknown }).text;
    if (typeof text !== "string") throw new Error("the STT endpoint's answer has no text");
    return text.trim();
  }

  /** The text spoken, as OGG/Opus. */
  async speak(text: string): Promise<Buffer> {
    const tts = this.config.tts;
    if (!tts || !this.canSpeak) throw new Error("voice answers are not configured");
    const spoken = text.slice(0, MAX_SPOKEN);
    let audio: Buffer;
    if (tts.provider === "espeak") {
      const wav = await pipe("espeak-ng", ["-v", tts.voice, "--stdin", "--stdout"], spoken);
      audio = await toOggOpus(wav);
    } else {
      const res = await fetch(`${tts.base_url.replace(/\/+$/, "")}/audio/speech`, {
        method: "POST",
        headers: { "content-type": "application/json", ...this.auth(tts.api_key_env) },
        body: JSON.stringify({ model: tts.model, voice: tts.voice, input: spoken, response_format: "opus" }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok)
        throw new Error(`the TTS endpoint answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
      audio = Buffer.from(await res.arrayBuffer());
      // A server that ignores response_format sends another format: made OGG/Opus here.
      if (!isOggOpus(audio)) audio = await toOggOpus(audio);
    }
    if (!isOggOpus(audio)) throw new Error("the speech made is not OGG/Opus");
    return audio;
  }

  private auth(keyEnv: string | undefined): Record<string, string> {
    const key = keyEnv ? this.env[keyEnv] : undefined;
    return key ? { authorization: `Bearer ${key}` } : {};
  }
}

/**
 * A received voice note as a line for the model: its transcript, or where it was saved and why it
 * was not transcribed (never a failed turn). `shown` is called with a transcript when the
 * platform shows it back.
 */
export async function voiceNoteText(
  speech: Speech | undefined,
  note: { bytes: Buffer; name: string; path: string },
  shown?: (transcript: string) => Promise<void>,
): Promise<string> {
  const saved = `[voice note attached: ${note.name}, saved at ${note.path}`;
  if (!speech?.canTranscribe) return `${saved} (not transcribed: no voice.stt configured)]`;
  try {
    const text = await speech.transcribe(note.bytes, note.name);
    if (speech.config.show_transcript) await shown?.(text).catch(() => {});
    return text;
  } catch (err) {
    return `${saved} (not transcribed: ${err instanceof Error ? err.message : String(err)})]`;
  }
}
