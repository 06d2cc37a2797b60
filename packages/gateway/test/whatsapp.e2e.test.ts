// WhatsApp (Cloud API) end to end: `iris gateway run`'s code path with the webhook on a loopback
// port, the fake Graph API in testkit calling it signed as Meta does, and the fake LLM server.
// Covers the verification handshake, a forged call (401, nothing runs), a retried call (answered
// once), an image to the model, pairing, the 24-hour window (a template instead, the answer
// when the user writes again), a restart while Meta's deliveries fail (retried, answered once), and
// files the model sends (a picture as an image message, a CSV as a document; a zip refused).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  FakeWhatsapp,
  type RecordedRequest,
  solidPng,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";

const TOKEN = "EAAG-fake-token-123";
const APP_SECRET = "app-secret-9f9f";
const VERIFY = "verify-me-42";
const MIN = "821012345678";
const JO = "491701234567";

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

function said(req: RecordedRequest): string {
  const { last, said } = lastMessage(req);
  if (!Array.isArray(last?.content)) return said;
  return (last.content as { type: string; text?: string }[]).find((p) => p.type === "text")?.text ?? "";
}

describe("gateway over WhatsApp (fake Cloud API)", () => {
  let wa: FakeWhatsapp;
  let fake: FakeLlm;
  let dir: TempDir;
  let gateway: { stop: () => void; running: Promise<number> };
  let err = "";
  const textsTo = (to: string) =>
    wa.sent.filter((s) => s.to === to).map((s) => s.text ?? `template:${s.template}`);

  beforeAll(async () => {
    [wa, fake] = await Promise.all([
      FakeWhatsapp.start({
        token: TOKEN,
        appSecret: APP_SECRET,
        phoneNumberId: "1111",
        templates: ["answer_ready"],
      }),
      startFakeLlm(),
    ]);
    fake.setHandler((req: RecordedRequest) => {
      const { last } = lastMessage(req);
      if (last?.role === "tool") return { text: `tool: ${JSON.stringify(last.content).slice(0, 200)}` };
      const file = /^send (\S+)$/.exec(said(req))?.[1];
      if (file)
        return { toolCalls: [{ name: "send_file", arguments: { path: file, caption: `here is ${file}` } }] };
      return { text: `echo: ${said(req).split("\n")[0]}` };
    });
    dir = tempDir("iris-gw-whatsapp");
    writeFileSync(
      join(dir.path, ".env"),
      `WHATSAPP_TOKEN=${TOKEN}\nWHATSAPP_APP_SECRET=${APP_SECRET}\nWHATSAPP_VERIFY_TOKEN=${VERIFY}\n`,
    );
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    whatsapp: {phone_number_id: "1111", api_root: "${wa.apiRoot}", port: 0, allowed_users: ["${MIN}", "${JO}"], template: {name: answer_ready}}`,
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
    for (const s of [TOKEN, APP_SECRET, VERIFY]) expect(err).not.toContain(s);
  }, 60_000);

  it("answers Meta's verification handshake only with the verify token", async () => {
    const q = (token: string) =>
      `${wa.webhook}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=ch-123`;
    const ok = await fetch(q(VERIFY));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("ch-123");
    expect((await fetch(q("wrong"))).status).toBe(403);
  });

  it("answers an allowed user's message through the Graph API", async () => {
    const { status } = await wa.userSends({ from: MIN, name: "Min", text: "hello" });
    expect(status).toBe(200);
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: hello"),
      "the answer",
    );
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("This chat is WhatsApp");
  }, 60_000);

  it("a forged call is a 401 that runs nothing; a retried call is answered once", async () => {
    const before = fake.requests.length;
    expect(await wa.forged("do evil", MIN)).toBe(401);
    await wa.userSends({ from: MIN, text: "once please" });
    expect(await wa.redeliverLast()).toBe(200);
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: once please"),
      "the answer",
    );
    await wa.userSends({ from: MIN, text: "and next" });
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: and next"),
      "the next answer",
    );
    expect(textsTo(MIN).filter((t) => t === "echo: once please")).toHaveLength(1);
    expect(fake.requests.length).toBe(before + 2);
  }, 60_000);

  it("sends the files the model asks for: a picture as an image, a CSV as a document, a zip refused", async () => {
    const png = solidPng(3, 3, [200, 30, 30]);
    const csv = Buffer.from("a,b\n5,6\n");
    writeFileSync(join(dir.path, "work", "dot.png"), png);
    writeFileSync(join(dir.path, "work", "table.csv"), csv);
    writeFileSync(join(dir.path, "work", "all.zip"), "PK");
    for (const name of ["dot.png", "table.csv", "all.zip"]) {
      await wa.userSends({ from: MIN, text: `send ${name}` });
      await until(
        () => textsTo(MIN),
        (t) => t.some((x) => x.startsWith("tool:") && x.includes(name)),
        `${name}'s outcome`,
      );
    }
    const media = wa.sent.filter((m) => m.to === MIN && (m.type === "image" || m.type === "document"));
    expect(media.map((m) => [m.type, m.caption, m.filename])).toEqual([
      ["image", "here is dot.png", undefined],
      ["document", "here is table.csv", "table.csv"],
    ]);
    expect(wa.media.get(media[0]?.media ?? "")).toEqual({ bytes: png, mime: "image/png" });
    expect(wa.media.get(media[1]?.media ?? "")).toEqual({ bytes: csv, mime: "text/plain" });
    expect(textsTo(MIN).find((x) => x.includes("all.zip"))).toContain("whatsapp cannot send all.zip (.zip)");
  }, 60_000);

  it("fetches an image from the Graph API and hands it to the model", async () => {
    await wa.userSends({ from: MIN, text: "what is this", image: solidPng(4, 4) });
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: what is this"),
      "the answer",
    );
    expect(fake.requests.at(-1)?.rawBody.toString()).toContain("data:image/png;base64,");
  }, 60_000);

  it("gives a stranger a pairing code and never reaches the model", async () => {
    const before = fake.requests.length;
    await wa.userSends({ from: "15550001111", text: "let me in" });
    const [code] = await until(
      () => textsTo("15550001111"),
      (t) => t.length > 0,
      "the pairing code",
    );
    expect(code).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(fake.requests.length).toBe(before);
  }, 60_000);

  it("outside the 24-hour window sends the template, and the answer when the user writes again", async () => {
    const old = Math.floor(Date.now() / 1000) - 25 * 3600;
    // Jo's only message is a day old (Meta delivered it late): the window is closed.
    await wa.userSends({ from: JO, text: "a day-old question", at: old });
    await until(
      () => textsTo(JO),
      (t) => t.includes("template:answer_ready"),
      "the template",
    );
    expect(textsTo(JO)).toEqual(["template:answer_ready"]);
    await wa.userSends({ from: JO, text: "I am back" });
    await until(
      () => textsTo(JO),
      (t) => t.includes("echo: I am back"),
      "the answer after the window opened",
    );
    expect(textsTo(JO)).toEqual(["template:answer_ready", "echo: a day-old question", "echo: I am back"]);
  }, 60_000);

  it("a restart of the gateway mid-conversation: a message Meta could not deliver meanwhile is answered once", async () => {
    await wa.userSends({ from: MIN, text: "before the restart" });
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: before the restart"),
      "the answer before the restart",
    );
    gateway.stop();
    expect(await gateway.running).toBe(0);
    const from = err.length;
    // The webhook is down: Meta's delivery fails and is tried again later.
    expect((await wa.userSends({ from: MIN, text: "while you were away" })).status).toBe(0);
    gateway = runGateway(dir.path, (s) => {
      err += s;
    });
    await until(
      () => err.slice(from),
      (e) => e.includes("running (pid"),
      "the gateway to start again",
    );
    // The same public URL in front of the new port (a reverse proxy keeps it).
    wa.webhook = /WhatsApp webhook at (\S+)/.exec(err.slice(from))?.[1] ?? "";
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: while you were away"),
      "the answer after the restart",
    );
    await wa.userSends({ from: MIN, text: "and now" });
    await until(
      () => textsTo(MIN),
      (t) => t.includes("echo: and now"),
      "the next answer",
    );
    for (const t of ["echo: before the restart", "echo: while you were away", "echo: hello"])
      expect(textsTo(MIN).filter((x) => x === t)).toHaveLength(1);
    expect(wa.redeliveries).toBeGreaterThan(0);
  }, 60_000);
});
