// A fake WhatsApp Business Cloud API (Graph API) and the Meta side of its webhook: users' messages
// are POSTed to the bot's webhook signed with the app secret (X-Hub-Signature-256), as Meta does,
// and the bot's sends are checked as strictly as the Graph API checks them: the bearer token
// (401, code 190), messaging_product, a digits-only recipient, 4096 characters of text, and the
// 24-hour customer-service window (outside it only an approved template: code 131047, which the
// real API reports a moment later in a status; here the send itself fails). Media are served
// from GET /{version}/{media-id} and their URL, both with the token; an upload must be a type the
// API takes (OGG/Opus audio, JPEG or PNG up to 5 MB, text, PDF and Office documents up to 100 MB),
// and an image or document message must name such an upload of its kind. A delivery the webhook does
// not answer 200 (or cannot be made: the bot is down) is tried again until it is, as Meta does
// (for days, less and less often; here every `retryMs`).
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeWhatsappOptions {
  token: string;
  appSecret: string;
  phoneNumberId: string;
  /** Approved template names. */
  templates?: string[];
  /** How long a failed delivery waits before it is tried again (default 1000 ms). */
  retryMs?: number;
}

export interface WaSent {
  to: string;
  type: string;
  text?: string;
  template?: string;
  /** An audio message's media id (its bytes in `media`). */
  audio?: string;
  /** An image or document message's media id, caption and (a document's) file name. */
  media?: string;
  caption?: string;
  filename?: string;
  id: string;
}

// What the Cloud API takes for each kind of media, and up to what size.
const MEDIA_LIMITS: Record<string, { kind: "audio" | "image" | "document"; max: number }> = {
  "audio/ogg": { kind: "audio", max: 16 * 1024 * 1024 },
  "image/jpeg": { kind: "image", max: 5 * 1024 * 1024 },
  "image/png": { kind: "image", max: 5 * 1024 * 1024 },
  ...Object.fromEntries(
    [
      "text/plain",
      "application/pdf",
      "application/msword",
      "application/vnd.ms-excel",
      "application/vnd.ms-powerpoint",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ].map((m) => [m, { kind: "document" as const, max: 100 * 1024 * 1024 }]),
  ),
};

export interface WaUserMessage {
  from: string;
  name?: string;
  text?: string;
  image?: Buffer;
  /** A voice note (OGG/Opus bytes). */
  voice?: Buffer;
  /** When the user wrote, in Unix seconds (default now): the 24-hour window runs from it. */
  at?: number;
}

const DAY_S = 24 * 3600;

export class FakeWhatsapp {
  readonly sent: WaSent[] = [];
  readonly media = new Map<string, { bytes: Buffer; mime: string }>();
  /** Each user's latest message time (Unix seconds). */
  private readonly last = new Map<string, number>();
  private lastPayload: Buffer | undefined;
  /** Deliveries waiting to be tried again. */
  private readonly retries = new Set<NodeJS.Timeout>();
  /** Deliveries tried again after a failure. */
  redeliveries = 0;
  webhook = "";

  private constructor(
    private readonly server: Server,
    readonly apiRoot: string,
    private readonly opts: FakeWhatsappOptions,
  ) {}

  static async start(opts: FakeWhatsappOptions): Promise<FakeWhatsapp> {
    let fake: FakeWhatsapp | undefined;
    const server = createServer((req, res) => {
      fake?.route(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    fake = new FakeWhatsapp(server, `http://127.0.0.1:${port}`, opts);
    return fake;
  }

  /** The user writes: Meta calls the webhook, signed. Its HTTP status, and the message id. */
  async userSends(m: WaUserMessage): Promise<{ status: number; id: string }> {
    const id = `wamid.${randomUUID().replace(/-/g, "")}`;
    const at = m.at ?? Math.floor(Date.now() / 1000);
    this.last.set(m.from, Math.max(this.last.get(m.from) ?? 0, at));
    let message: Record<string, unknown> = {
      from: m.from,
      id,
      timestamp: String(at),
      type: "text",
      text: { body: m.text ?? "" },
    };
    if (m.image) {
      const mediaId = String(Math.floor(Math.random() * 1e15));
      this.media.set(mediaId, { bytes: m.image, mime: "image/png" });
      message = {
        from: m.from,
        id,
        timestamp: String(at),
        type: "image",
        image: { id: mediaId, mime_type: "image/png", ...(m.text ? { caption: m.text } : {}) },
      };
    }
    if (m.voice) {
      const mediaId = String(Math.floor(Math.random() * 1e15));
      this.media.set(mediaId, { bytes: m.voice, mime: "audio/ogg" });
      message = {
        from: m.from,
        id,
        timestamp: String(at),
        type: "audio",
        audio: { id: mediaId, mime_type: "audio/ogg; codecs=opus", voice: true },
      };
    }
    const payload = Buffer.from(
      JSON.stringify({
        object: "whatsapp_business_account",
        entry: [
          {
            id: "WABA_ID",
            changes: [
              {
                field: "messages",
                value: {
                  messaging_product: "whatsapp",
                  metadata: { display_phone_number: "15550000000", phone_number_id: this.opts.phoneNumberId },
                  contacts: [{ profile: { name: m.name ?? "User" }, wa_id: m.from }],
                  messages: [message],
                },
              },
            ],
          },
        ],
      }),
    );
    this.lastPayload = payload;
    return { status: await this.deliver(payload), id };
  }

  /** Meta retries the last webhook call (same message id). */
  redeliverLast(): Promise<number> {
    return this.deliver(this.lastPayload ?? Buffer.from("{}"));
  }

  /** Meta's delivery: its status (0: the webhook could not be reached), tried again until 200. */
  private async deliver(payload: Buffer): Promise<number> {
    const status = await this.call(payload, this.sign(payload)).catch(() => 0);
    if (status !== 200) {
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        this.redeliveries++;
        void this.deliver(payload);
      }, this.opts.retryMs ?? 1000);
      this.retries.add(timer);
    }
    return status;
  }

  /** A call to the webhook signed with another secret (a forger's). */
  forged(text: string, from: string): Promise<number> {
    const body = Buffer.from(
      JSON.stringify({
        object: "whatsapp_business_account",
        entry: [
          {
            changes: [
              {
                field: "messages",
                value: {
                  metadata: { phone_number_id: this.opts.phoneNumberId },
                  messages: [
                    {
                      from,
                      id: "wamid.forged",
                      timestamp: String(Math.floor(Date.now() / 1000)),
                      type: "text",
                      text: { body: text },
                    },
                  ],
                },
              },
            ],
          },
        ],
      }),
    );
    return this.call(body, `sha256=${createHmac("sha256", "not-the-secret").update(body).digest("hex")}`);
  }

  close(): Promise<void> {
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private windowOpen(to: string): boolean {
    return Math.floor(Date.now() / 1000) - (this.last.get(to) ?? 0) < DAY_S;
  }

  /** POST /{phone-number-id}/media: multipart with messaging_product, type and file, of a type and size the API takes; audio/ogg must be Opus. */
  private async upload(req: IncomingMessage, res: ServerResponse, pnid: string): Promise<void> {
    const fail = (code: number, message: string) =>
      json(res, 400, { error: { message, type: "OAuthException", code, fbtrace_id: "fake" } });
    if (pnid !== this.opts.phoneNumberId)
      return fail(100, "Unsupported post request: unknown phone number id");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const type = req.headers["content-type"] ?? "";
    if (!type.startsWith("multipart/form-data"))
      return fail(100, "(#100) The request must be multipart/form-data");
    const form = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
    if (form.get("messaging_product") !== "whatsapp")
      return fail(100, "(#100) The parameter messaging_product is required.");
    const file = form.get("file");
    const mime = form.get("type");
    if (!(file instanceof Blob) || typeof mime !== "string")
      return fail(100, "(#100) The parameters file and type are required.");
    const bytes = Buffer.from(await file.arrayBuffer());
    const limit = MEDIA_LIMITS[mime];
    if (!limit) return fail(131053, `(#131053) Media upload error: unsupported type ${mime}`);
    if (bytes.length > limit.max)
      return fail(131053, `(#131053) Media upload error: ${limit.kind} larger than ${limit.max} bytes`);
    const head = bytes.subarray(0, 200).toString("latin1");
    if (mime === "audio/ogg" && !(head.startsWith("OggS") && head.includes("OpusHead")))
      return fail(131053, "(#131053) Media upload error: audio/ogg must be OGG with the Opus codec");
    const id = String(Math.floor(Math.random() * 1e15));
    this.media.set(id, { bytes, mime });
    json(res, 200, { id });
  }

  private sign(body: Buffer): string {
    return `sha256=${createHmac("sha256", this.opts.appSecret).update(body).digest("hex")}`;
  }

  private async call(body: Buffer, signature: string): Promise<number> {
    if (!this.webhook) throw new Error("FakeWhatsapp: set webhook to the bot's webhook URL first");
    const res = await fetch(this.webhook, {
      method: "POST",
      body: new Uint8Array(body),
      headers: { "content-type": "application/json", "x-hub-signature-256": signature },
    });
    return res.status;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const fail = (status: number, code: number, message: string) =>
      json(res, status, { error: { message, type: "OAuthException", code, fbtrace_id: "fake" } });
    if (req.headers.authorization !== `Bearer ${this.opts.token}`)
      return fail(401, 190, "Invalid OAuth access token - Cannot parse access token");
    const bytes = /^\/media-bytes\/(\d+)$/.exec(url.pathname);
    if (bytes && req.method === "GET") {
      const m = this.media.get(bytes[1] ?? "");
      if (!m) return fail(404, 100, "media not found");
      res.writeHead(200, { "content-type": m.mime, "content-length": m.bytes.length });
      return void res.end(m.bytes);
    }
    const meta = /^\/v\d+\.\d+\/(\d+)$/.exec(url.pathname);
    if (meta && req.method === "GET") {
      const m = this.media.get(meta[1] ?? "");
      if (!m) return fail(400, 100, `Unsupported get request. Object with ID '${meta[1]}' does not exist`);
      return json(res, 200, {
        messaging_product: "whatsapp",
        url: `${this.apiRoot}/media-bytes/${meta[1]}`,
        mime_type: m.mime,
        file_size: m.bytes.length,
        id: meta[1],
      });
    }
    const upload = /^\/v\d+\.\d+\/(\d+)\/media$/.exec(url.pathname);
    if (upload && req.method === "POST") return this.upload(req, res, upload[1] ?? "");
    const send = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(url.pathname);
    if (!send || req.method !== "POST") return fail(400, 100, `Unknown path components: ${url.pathname}`);
    if (send[1] !== this.opts.phoneNumberId)
      return fail(400, 100, "Unsupported post request: unknown phone number id");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let b: Record<string, unknown>;
    try {
      b = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      return fail(400, 100, "The request body is not JSON");
    }
    if (b.messaging_product !== "whatsapp")
      return fail(400, 100, "(#100) The parameter messaging_product is required.");
    const to = b.to;
    if (typeof to !== "string" || !/^\d{6,16}$/.test(to))
      return fail(400, 100, "(#100) Invalid parameter: to");
    const id = `wamid.${randomUUID().replace(/-/g, "")}`;
    if (b.type === "template") {
      const t = b.template as { name?: unknown; language?: { code?: unknown } } | undefined;
      if (typeof t?.name !== "string" || typeof t.language?.code !== "string")
        return fail(400, 100, "(#100) Invalid parameter: template");
      if (!(this.opts.templates ?? []).includes(t.name))
        return fail(404, 132001, "(#132001) Template name does not exist in the translation");
      this.sent.push({ to, type: "template", template: t.name, id });
    } else if (b.type === "text") {
      const body = (b.text as { body?: unknown } | undefined)?.body;
      if (typeof body !== "string" || body === "")
        return fail(400, 100, "(#100) The parameter text['body'] is required.");
      if (body.length > 4096)
        return fail(400, 100, "(#100) Param text['body'] must be at most 4096 characters long.");
      if (!this.windowOpen(to))
        return fail(
          400,
          131047,
          "(#131047) Re-engagement message: more than 24 hours have passed since the recipient last replied",
        );
      this.sent.push({ to, type: "text", text: body, id });
    } else if (b.type === "audio") {
      const mediaId = (b.audio as { id?: unknown } | undefined)?.id;
      if (typeof mediaId !== "string" || !this.media.has(mediaId))
        return fail(400, 131053, "(#131053) Media upload error: unknown media id");
      if (!this.windowOpen(to)) return fail(400, 131047, "(#131047) Re-engagement message");
      this.sent.push({ to, type: "audio", audio: mediaId, id });
    } else if (b.type === "image" || b.type === "document") {
      const m = b[b.type] as { id?: unknown; caption?: unknown; filename?: unknown } | undefined;
      const media = typeof m?.id === "string" ? this.media.get(m.id) : undefined;
      if (!media || MEDIA_LIMITS[media.mime]?.kind !== b.type)
        return fail(400, 131053, `(#131053) Media upload error: no ${b.type} with that media id`);
      if (m?.caption !== undefined && (typeof m.caption !== "string" || m.caption.length > 1024))
        return fail(400, 100, "(#100) Param caption must be a string of at most 1024 characters.");
      if (!this.windowOpen(to)) return fail(400, 131047, "(#131047) Re-engagement message");
      this.sent.push({
        to,
        type: b.type,
        media: m?.id as string,
        ...(typeof m?.caption === "string" ? { caption: m.caption } : {}),
        ...(typeof m?.filename === "string" ? { filename: m.filename } : {}),
        id,
      });
    } else return fail(400, 100, `(#100) Unsupported message type ${String(b.type)}`);
    json(res, 200, {
      messaging_product: "whatsapp",
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id }],
    });
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}
