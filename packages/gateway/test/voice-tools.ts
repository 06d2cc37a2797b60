// espeak-ng, ffmpeg and ffprobe for the voice-note tests: a spoken question made as a Telegram
// app records it (OGG/Opus), and a check that what the bot sent is OGG/Opus by ffprobe. Without
// them the tests skip on a developer's machine but fail under CI=true (.ci/run installs them).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const has = (cmd: string) => spawnSync(cmd, ["-version"], { stdio: "ignore" }).error === undefined;

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutVoiceTools(): boolean {
  const missing = ["espeak-ng", "ffmpeg", "ffprobe"].filter((c) => !has(c));
  if (missing.length === 0) return false;
  if (process.env.CI === "true")
    throw new Error(
      `${missing.join(", ")} not installed: the voice tests need them (apt-get install -y espeak-ng ffmpeg; .ci/run does)`,
    );
  return true;
}

/** `text` spoken by espeak-ng, as an OGG/Opus voice note. */
export function spokenOgg(text: string, voice = "en"): Buffer {
  const wav = spawnSync("espeak-ng", ["-v", voice, "--stdin", "--stdout"], { input: text });
  if (wav.status !== 0) throw new Error(`espeak-ng failed: ${wav.stderr}`);
  const ogg = spawnSync(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-c:a", "libopus", "-f", "ogg", "pipe:1"],
    {
      input: wav.stdout,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (ogg.status !== 0) throw new Error(`ffmpeg failed: ${ogg.stderr}`);
  return ogg.stdout;
}

/** What ffprobe reads in the bytes: container, first stream's codec, duration in seconds. */
export function probe(bytes: Buffer): { format: string; codec: string; duration: number } {
  // From a file: ffprobe finds an OGG's duration at its end, which a pipe cannot seek to.
  const dir = mkdtempSync(join(tmpdir(), "iris-probe-"));
  const file = join(dir, "audio.ogg");
  writeFileSync(file, bytes);
  const args = [
    "-v",
    "error",
    "-show_entries",
    "stream=codec_name:format=format_name,duration",
    "-of",
    "json",
  ];
  const r = spawnSync("ffprobe", [...args, file], { encoding: "buffer" });
  rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`ffprobe refused the audio: ${r.stderr.toString()}`);
  const j = JSON.parse(r.stdout.toString()) as {
    streams?: { codec_name?: string }[];
    format?: { format_name?: string; duration?: string };
  };
  return {
    format: j.format?.format_name ?? "",
    codec: j.streams?.[0]?.codec_name ?? "",
    duration: Number(j.format?.duration ?? 0),
  };
}
