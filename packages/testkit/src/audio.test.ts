import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import type { FakeLlm } from "./types.js";

const WAV = Buffer.concat([Buffer.from("RIFF\0\0\0\0WAVEfmt "), Buffer.alloc(32)]);

describe("fake /v1/audio/transcriptions", () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ apiKey: "k" });
    fake.setTranscriber((t) => `heard ${t.audio.length} bytes`);
  });
  afterAll(() => fake.close());
  const post = (form: FormData | string, key = "k") =>
    fetch(`${fake.baseUrl}/audio/transcriptions`, {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${key}` },
    });
  const form = (file?: Buffer, model = "whisper-1") => {
    const f = new FormData();
    if (file) f.append("file", new Blob([new Uint8Array(file)]), "a.wav");
    if (model) f.append("model", model);
    return f;
  };

  it("transcribes a multipart audio upload", async () => {
    const res = await post(form(WAV));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: `heard ${WAV.length} bytes` });
    expect(fake.transcriptions.at(-1)).toMatchObject({ model: "whisper-1", filename: "a.wav" });
  });

  it("refuses what the real endpoint refuses", async () => {
    expect((await post(form(WAV), "wrong")).status).toBe(401);
    expect((await post("{}")).status).toBe(400);
    expect((await post(form())).status).toBe(400);
    expect((await post(form(WAV, ""))).status).toBe(400);
    const notAudio = await post(form(Buffer.from("hello, not audio")));
    expect(notAudio.status).toBe(400);
    expect(((await notAudio.json()) as { error: { message: string } }).error.message).toMatch(
      /Invalid file format/,
    );
  });
});
