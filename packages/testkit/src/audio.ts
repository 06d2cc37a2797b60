// The fake LLM server's speech-to-text endpoint: OpenAI's POST /v1/audio/transcriptions
// (multipart/form-data with `file` and `model`), as strict as the real one: no multipart body,
// no file, an empty one, no model or a file that is no known audio format is a 400 with OpenAI's
// error shape. What the audio "says" comes from the test's transcriber (default: an error).
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
    form = await new Response(raw, { headers: { "content-type": contentType } }).formData();
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
