// The fake WhatsApp Cloud API refuses media as the Graph API does: an upload of a type it does
// not take, a picture over 5 MB, and a message that names an upload of another kind.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeWhatsapp } from "./server.js";

const TOKEN = "wa-token";
const USER = "491701111111";

describe("FakeWhatsapp media", () => {
  let wa: FakeWhatsapp;
  let webhook: Server;
  beforeAll(async () => {
    wa = await FakeWhatsapp.start({ token: TOKEN, appSecret: "s", phoneNumberId: "1111" });
    webhook = createServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((r) => webhook.listen(0, "127.0.0.1", r));
    const a = webhook.address();
    wa.webhook = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/`;
    // The user wrote just now: the 24-hour window is open.
    await wa.userSends({ from: USER, text: "hi" });
  });
  afterAll(async () => {
    await wa.close();
    await new Promise<void>((r) => webhook.close(() => r()));
  });

  const upload = async (mime: string, bytes: Buffer) => {
    const form = new FormData();
    form.append("messaging_product", "whatsapp");
    form.append("type", mime);
    form.append("file", new Blob([new Uint8Array(bytes)], { type: mime }), "f");
    const res = await fetch(`${wa.apiRoot}/v21.0/1111/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: form,
    });
    return { status: res.status, json: (await res.json()) as { id?: string; error?: { code: number } } };
  };
  const send = async (message: Record<string, unknown>) => {
    const res = await fetch(`${wa.apiRoot}/v21.0/1111/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", to: USER, ...message }),
    });
    return { status: res.status, json: (await res.json()) as { error?: { code: number } } };
  };

  it("takes pictures, text and PDFs; refuses other types and pictures over 5 MB", async () => {
    expect((await upload("application/zip", Buffer.from("PK"))).json.error?.code).toBe(131053);
    expect((await upload("image/png", Buffer.alloc(5 * 1024 * 1024 + 1))).json.error?.code).toBe(131053);
    expect((await upload("application/pdf", Buffer.from("%PDF-1.4"))).status).toBe(200);
  });

  it("sends an image or document only for an upload of that kind", async () => {
    const png = (await upload("image/png", Buffer.from("png"))).json.id;
    const txt = (await upload("text/plain", Buffer.from("a,b"))).json.id;
    expect((await send({ type: "document", document: { id: png } })).json.error?.code).toBe(131053);
    expect((await send({ type: "image", image: { id: txt } })).json.error?.code).toBe(131053);
    expect((await send({ type: "image", image: { id: "123" } })).json.error?.code).toBe(131053);
    expect((await send({ type: "image", image: { id: png, caption: "c".repeat(1025) } })).status).toBe(400);
    expect((await send({ type: "image", image: { id: png, caption: "a dot" } })).status).toBe(200);
    expect((await send({ type: "document", document: { id: txt, filename: "t.csv" } })).status).toBe(200);
    expect(wa.sent.slice(-2).map((m) => [m.type, m.caption, m.filename])).toEqual([
      ["image", "a dot", undefined],
      ["document", undefined, "t.csv"],
    ]);
  });
});
