// Voice notes over WhatsApp end to end: a question spoken by espeak-ng arrives as a voice note
// (audio media on the fake Cloud API), is fetched, transcribed by the fake LLM server's
// /v1/audio/transcriptions, answered as text and as a voice note uploaded to /media, which the
// fake accepts only as OGG/Opus and ffprobe reads as such.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeWhatsapp,
  type RecordedRequest,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";
import { probe, skipWithoutVoiceTools, spokenOgg } from "./voice-tools.js";

const MIN = "821012345678";

const until = async <T>(get: () => T, ok: (v: T) => boolean, what: string, ms = 30_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(skipWithoutVoiceTools())("voice notes over WhatsApp (espeak-ng, fake STT, ffprobe)", () => {
  let wa: FakeWhatsapp;
  let fake: FakeLlm;
  let dir: TempDir;
  let gateway: { stop: () => void; running: Promise<number> };
  let err = "";
  const question = spokenOgg("Wie spät ist es?", "de");

  beforeAll(async () => {
    [wa, fake] = await Promise.all([
      FakeWhatsapp.start({ token: "tok", appSecret: "sec", phoneNumberId: "1111" }),
      startFakeLlm(),
    ]);
    fake.setHandler((req: RecordedRequest) => ({ text: `echo: ${lastMessage(req).said}` }));
    fake.setTranscriber((t) => (t.audio.equals(question) ? "Wie spät ist es?" : "(unintelligible)"));
    dir = tempDir("iris-gw-wa-voice");
    writeFileSync(
      join(dir.path, ".env"),
      "WHATSAPP_TOKEN=tok\nWHATSAPP_APP_SECRET=sec\nWHATSAPP_VERIFY_TOKEN=v\n",
    );
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    whatsapp: {phone_number_id: "1111", api_root: "${wa.apiRoot}", port: 0, allowed_users: ["${MIN}"], voice: {stt: {base_url: "${fake.baseUrl}"}, tts: {provider: espeak, voice: de}}}`,
    ]);
    gateway = runGateway(dir.path, (s) => {
      err += s;
    });
    await until(
      () => err,
      (e) => e.includes("running (pid"),
      "the gateway to start",
    );
    wa.webhook = /WhatsApp webhook at (\S+)/.exec(err)?.[1] ?? "";
  }, 60_000);

  afterAll(async () => {
    gateway?.stop();
    const code = await gateway?.running;
    await Promise.all([wa?.close(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("transcribes a voice note and answers with text and a valid OGG/Opus voice note", async () => {
    await wa.userSends({ from: MIN, voice: question });
    const sent = await until(
      () => wa.sent.filter((s) => s.to === MIN),
      (s) => s.some((x) => x.type === "audio"),
      "a voice answer",
    );
    expect(sent.map((s) => s.text ?? s.type)).toEqual(["echo: Wie spät ist es?", "audio"]);
    const audio = wa.media.get(sent[1]?.audio ?? "")?.bytes ?? Buffer.alloc(0);
    expect(probe(audio)).toMatchObject({ format: "ogg", codec: "opus" });
  }, 60_000);
});
