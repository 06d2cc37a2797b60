// The fake LLM server's audio endpoints. Speech-to-text: OpenAI's POST /v1/audio/transcriptions
// (multipart/form-data with `file` and `model`), as strict as the real one: no multipart body,
// no file, an empty one, no model or a file that is no known audio format is a 400 with OpenAI's
// error shape. What the audio "says" comes from the test's transcriber (default: an error).
import { spawnSync } from "node:child_process";
import type { ServerResponse } from "node:http";

export interface Transcription {
  model: string;
  filename: string;
  audio: Buffer;
  language?: string;
}

export type Transcriber = (t: Transcription) => string;

/** The container an audio file's first bytes name, or undefined. */
export function audioFormat(b: Buffer): string | undefined {
  if (b.subarray(0, 4).toString("latin1") === "OggS") return "ogg";
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WAVE")
    return "wav";
  if (b.subarray(0, 4).toString("latin1") === "fLaC") return "flac";
  if (b.subarray(0, 3).toString("latin1") === "ID3" || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0))
    return "mp3";
  if (b.readUInt32BE(0) === 0x1a45dfa3) return "webm";
  return undefined;
}

function fail(res: ServerResponse, message: string, param: string | null = null): void {
  const text = JSON.stringify({ error: { message, type: "invalid_request_error", param, code: null } });
  res.writeHead(400, { "content-type": "application/json" });
  res.end(text);
}

export async function serveTranscription(
  contentType: string,
  raw: Buffer,
  res: ServerResponse,
  transcriber: Transcriber | undefined,
  log: Transcription[],
): Promise<void> {
  if (!contentType.startsWith("multipart/form-data"))
    return fail(res, "Invalid Content-Type: expected multipart/form-data.");
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType } }).formData();
  } catch {
    return fail(res, "Could not parse multipart form.");
  }
  const file = form.get("file");
  const model = form.get("model");
  if (!(file instanceof Blob)) return fail(res, "you must provide a file", "file");
  if (typeof model !== "string" || model === "")
    return fail(res, "you must provide a model parameter", "model");
  const audio = Buffer.from(await file.arrayBuffer());
  if (audio.length === 0 || audioFormat(audio) === undefined)
    return fail(
      res,
      "Invalid file format. Supported formats: flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm",
      "file",
    );
  const language = form.get("language");
  const t: Transcription = {
    model,
    filename: file instanceof File ? file.name : "audio",
    audio,
    ...(typeof language === "string" ? { language } : {}),
  };
  log.push(t);
  if (!transcriber) {
    res.writeHead(500, { "content-type": "application/json" });
    return void res.end(
      JSON.stringify({ error: { message: "fake-llm: no transcriber set", type: "server_error" } }),
    );
  }
  const text = transcriber(t);
  const format = form.get("response_format") ?? "json";
  if (format === "text") {
    res.writeHead(200, { "content-type": "text/plain" });
    return void res.end(text);
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ text }));
}

export interface SpeechRequest {
  model: string;
  voice: string;
  input: string;
  format: string;
}

const FORMATS = new Set(["mp3", "opus", "aac", "flac", "wav", "pcm"]);

/** One second of a 440 Hz tone, 16 kHz mono 16-bit WAV. */
function toneWav(): Buffer {
  const rate = 16_000;
  const pcm = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "latin1");
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write("WAVEfmt ", 8, "latin1");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "latin1");
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}

/**
 * OpenAI's POST /v1/audio/speech: JSON {model, input (at most 4096 characters), voice,
 * response_format}. Audio is a tone; `wav` is made here, `opus` (OGG/Opus, as OpenAI sends it)
 * by ffmpeg (a 500 without it); other formats are not made by the fake (400).
 */
export function serveSpeech(body: unknown, res: ServerResponse, log: SpeechRequest[]): void {
  const b = (body ?? {}) as Record<string, unknown>;
  const bad = (message: string, param: string) => fail(res, message, param);
  if (typeof b.model !== "string" || b.model === "")
    return void bad("you must provide a model parameter", "model");
  if (typeof b.input !== "string" || b.input === "") return void bad("you must provide an input", "input");
  if (b.input.length > 4096) return void bad("input is longer than 4096 characters", "input");
  if (typeof b.voice !== "string" || b.voice === "") return void bad("you must provide a voice", "voice");
  const format = b.response_format ?? "mp3";
  if (typeof format !== "string" || !FORMATS.has(format))
    return void bad(`invalid response_format ${String(format)}`, "response_format");
  if (format !== "wav" && format !== "opus")
    return void bad(`fake-llm makes only wav and opus, not ${format}`, "response_format");
  log.push({ model: b.model, voice: b.voice, input: b.input, format });
  const wav = toneWav();
  if (format === "wav") {
    res.writeHead(200, { "content-type": "audio/wav" });
    return void res.end(wav);
  }
  const ff = spawnSync(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-c:a", "libopus", "-f", "ogg", "pipe:1"],
    {
      input: wav,
    },
  );
  if (ff.status !== 0) {
    res.writeHead(500, { "content-type": "application/json" });
    return void res.end(
      JSON.stringify({ error: { message: "fake-llm: ffmpeg is needed for opus", type: "server_error" } }),
    );
  }
  res.writeHead(200, { "content-type": "audio/ogg" });
  res.end(ff.stdout);
}
