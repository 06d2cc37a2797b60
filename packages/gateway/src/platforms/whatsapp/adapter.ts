// WhatsApp through the Cloud API (SPEC G1). In: Meta calls the webhook (`/whatsapp`): the GET
// verification handshake answers hub.challenge when hub.verify_token is right; a POST runs only
// with a right X-Hub-Signature-256 (HMAC of the raw body with the app secret), else 401 and
// nothing runs. It is answered 200 at once (Meta retries slow webhooks), and a retried message has
// the same id, which the runner claims once. Media are fetched from the Graph API. Out:
// POST /{version}/{phone_number_id}/messages, inside the 24-hour window; outside it the configured
// template goes instead and the answer is held until the user writes again. Files go as image or
// document messages (media-out.ts), inside the window only.
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { Logger } from "@iris/llm";
import type {
  AdapterHost,
  OutboundFile,
  PlatformAdapter,
  PlatformLimits,
  SendResult,
} from "../../adapter.js";
import type { ChatAddress, InboundMessage } from "../../message.js";
import { signatureValid, tokenValid } from "../signed.js";
import type { Speech } from "../voice/speech.js";
import type { WhatsappConfig } from "./config.js";
import { mediaKindOf, uploadMedia, WHATSAPP_MAX_DOCUMENT } from "./media-out.js";
import { normaliseWebhook, PLATFORM, type WaInbound } from "./normalise.js";
import { ServiceWindow } from "./window.js";

export interface WhatsappOptions {
  config: WhatsappConfig;
  token: string;
  appSecret: string;
  verifyToken: string;
  filesDir: string;
  logger: Logger;
  /** Voice notes transcribed in and spoken out (the `voice:` section). */
  speech?: Speech;
}

const MAX_BODY = 1024 * 1024;
const MAX_MEDIA = 16 * 1024 * 1024;
/** Where the Cloud API's media URLs point (they need the token too). */
const MEDIA_HOST = "lookaside.fbsbx.com";

export class WhatsappAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  readonly limits: PlatformLimits = {
    maxMessage: 4096,
    measure: (t) => t.length,
    minEditIntervalMs: 0,
    maxFileBytes: WHATSAPP_MAX_DOCUMENT,
  };
  private server: Server | undefined;
  private readonly window: ServiceWindow;
  /** Users whose latest message was a voice note (answered with one too). */
  private readonly voiceIn = new Set<string>();
  url = "";

  constructor(private readonly opts: WhatsappOptions) {
    this.window = new ServiceWindow(join(opts.filesDir, "window.json"));
  }

  botNames(): string[] {
    return [];
  }

  async start(onMessage: (msg: InboundMessage) => void, gateway?: AdapterHost): Promise<void> {
    const { host, port } = this.opts.config;
    for (const w of this.opts.speech?.warnings() ?? []) {
      this.opts.logger.warn(w);
      gateway?.warn?.(w);
    }
    const server = createServer((req, res) => {
      this.handle(req, res, onMessage).catch((err) => {
        this.opts.logger.warn("whatsapp webhook failed", { error: this.explain(err) });
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err) =>
        reject(new Error(`whatsapp: cannot listen on ${host}:${port}: ${err.message}`)),
      );
      server.listen(port, host, resolve);
    });
    this.server = server;
    const a = server.address();
    this.url = `http://${host}:${typeof a === "object" && a ? a.port : port}/whatsapp`;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    s?.closeAllConnections();
  }

  async send(to: ChatAddress, text: string): Promise<SendResult> {
    const user = to.chatId;
    if (!this.window.isOpen(user)) {
      const t = this.opts.config.template;
      if (!t) {
        this.opts.logger.warn(
          "whatsapp: answer not sent: the 24-hour window is closed and no whatsapp.template is configured",
          { to: user },
        );
        return {};
      }
      this.window.hold(user, text);
      return this.post(user, {
        type: "template",
        template: { name: t.name, language: { code: t.language } },
      });
    }
    const sent = await this.post(user, { type: "text", text: { body: text, preview_url: false } });
    await this.sendVoice(user, text);
    return sent;
  }

  /** A picture as an image message, anything else WhatsApp takes as a document; inside the window only. */
  async sendFile(to: ChatAddress, file: OutboundFile): Promise<SendResult> {
    const user = to.chatId;
    if (!this.window.isOpen(user))
      throw new Error(
        "whatsapp: the 24-hour window is closed: a file goes only to a user who wrote in the last 24 hours",
      );
    const kind = mediaKindOf(file);
    const id = await uploadMedia(this.opts, file.data, kind.mime, file.name);
    const caption = file.caption ? { caption: file.caption.slice(0, 1024) } : {};
    return kind.type === "image"
      ? this.post(user, { type: "image", image: { id, ...caption } })
      : this.post(user, { type: "document", document: { id, filename: file.name, ...caption } });
  }

  /** The answer as a voice note too, where the chat asked for it; a failure is logged only. */
  private async sendVoice(user: string, text: string): Promise<void> {
    const speech = this.opts.speech;
    if (!speech?.canSpeak) return;
    if (speech.config.reply_with_voice === "voice_in" && !this.voiceIn.has(user)) return;
    try {
      const id = await uploadMedia(this.opts, await speech.speak(text), "audio/ogg", "answer.ogg");
      await this.post(user, { type: "audio", audio: { id } });
    } catch (err) {
      this.opts.logger.warn("whatsapp voice answer not sent", { error: this.explain(err) });
    }
  }

  private async post(to: string, message: Record<string, unknown>): Promise<SendResult> {
    const { api_root, api_version, phone_number_id } = this.opts.config;
    const res = await fetch(`${api_root.replace(/\/+$/, "")}/${api_version}/${phone_number_id}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.opts.token}`, "content-type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", recipient_type: "individual", to, ...message }),
    });
    const body = (await res.json().catch(() => ({}))) as {
      messages?: { id?: string }[];
      error?: { message?: string; code?: number };
    };
    if (!res.ok)
      throw new Error(
        `whatsapp: the Graph API answered ${res.status}${body.error ? ` (${body.error.code}: ${body.error.message})` : ""}`,
      );
    const id = body.messages?.[0]?.id;
    return id ? { messageId: id } : {};
  }

  private async handle(
    req: IncomingMessage,
    res: ServerResponse,
    onMessage: (msg: InboundMessage) => void,
  ): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/whatsapp") return void res.writeHead(404).end();
    if (req.method === "GET") {
      const q = url.searchParams;
      if (
        q.get("hub.mode") === "subscribe" &&
        tokenValid(this.opts.verifyToken, q.get("hub.verify_token") ?? undefined)
      )
        return void res.writeHead(200, { "content-type": "text/plain" }).end(q.get("hub.challenge") ?? "");
      return void res.writeHead(403).end();
    }
    if (req.method !== "POST") return void res.writeHead(405, { allow: "GET, POST" }).end();
    const raw = await readBody(req);
    if (!raw) return void res.writeHead(413).end();
    const sig = req.headers["x-hub-signature-256"];
    if (!signatureValid(this.opts.appSecret, raw, Array.isArray(sig) ? sig[0] : sig)) {
      this.opts.logger.warn("whatsapp webhook refused: bad signature");
      return void res.writeHead(401).end();
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return void res.writeHead(400).end();
    }
    res.writeHead(200).end();
    for (const inbound of normaliseWebhook(body, this.opts.config.phone_number_id))
      await this.receive(inbound, onMessage);
  }

  private async receive(inbound: WaInbound, onMessage: (msg: InboundMessage) => void): Promise<void> {
    const { msg } = inbound;
    this.window.userWrote(msg.userId, inbound.timestamp * 1000);
    // Answers held while the window was closed go out now that it is open again.
    if (this.window.isOpen(msg.userId))
      for (const text of this.window.takeHeld(msg.userId))
        await this.post(msg.userId, { type: "text", text: { body: text } }).catch((err) =>
          this.opts.logger.warn("whatsapp held answer not sent", { error: this.explain(err) }),
        );
    const lines = [msg.text];
    for (const [i, a] of msg.attachments.entries()) {
      const id = inbound.media[i];
      if (!id) continue;
      try {
        const bytes = await this.media(id);
        mkdirSync(this.opts.filesDir, { recursive: true, mode: 0o700 });
        const path = join(
          this.opts.filesDir,
          `${msg.messageId.replace(/[^0-9A-Za-z]/g, "").slice(-16)}-${a.name}`,
        );
        writeFileSync(path, bytes, { mode: 0o600 });
        a.url = path;
        if (a.kind === "image") a.data = bytes.toString("base64");
        if (a.kind === "audio") lines.push(await this.transcribed(msg.userId, bytes, a.name, path));
        else lines.push(`[${a.kind} attached: ${a.name}, saved at ${path} (${bytes.length} bytes)]`);
      } catch (err) {
        lines.push(`[${a.kind} attached: ${a.name} (not downloaded: ${this.explain(err)})]`);
      }
    }
    msg.text = lines.filter((l) => l !== "").join("\n");
    if (msg.attachments.some((a) => a.kind === "audio")) this.voiceIn.add(msg.userId);
    else this.voiceIn.delete(msg.userId);
    onMessage(msg);
  }

  /** A voice note as text: its transcript (shown back when configured), else where it was saved. */
  private async transcribed(user: string, bytes: Buffer, name: string, path: string): Promise<string> {
    const speech = this.opts.speech;
    if (!speech?.canTranscribe)
      return `[voice note attached: ${name}, saved at ${path} (not transcribed: no voice.stt configured)]`;
    try {
      const text = await speech.transcribe(bytes, name);
      if (speech.config.show_transcript)
        await this.post(user, { type: "text", text: { body: `🎤 ${text}` } }).catch(() => {});
      return text;
    } catch (err) {
      this.opts.logger.warn("whatsapp voice note not transcribed", { error: this.explain(err) });
      return `[voice note attached: ${name}, saved at ${path} (not transcribed: ${this.explain(err)})]`;
    }
  }

  /** A media object's bytes: its URL from the Graph API, then the bytes (both with the token). */
  private async media(id: string): Promise<Buffer> {
    const { api_root, api_version } = this.opts.config;
    const auth = { authorization: `Bearer ${this.opts.token}` };
    const meta = await fetch(`${api_root.replace(/\/+$/, "")}/${api_version}/${encodeURIComponent(id)}`, {
      headers: auth,
    });
    if (!meta.ok) throw new Error(`media ${id}: HTTP ${meta.status}`);
    const info = (await meta.json()) as { url?: unknown; file_size?: unknown };
    if (typeof info.url !== "string") throw new Error(`media ${id}: no url`);
    if (typeof info.file_size === "number" && info.file_size > MAX_MEDIA)
      throw new Error("larger than 16 MB");
    // The token is sent only to the Graph API's host or Meta's media host.
    const host = new URL(info.url).host;
    if (host !== new URL(api_root).host && host !== MEDIA_HOST)
      throw new Error(`media ${id}: its url is on another host (${host})`);
    const file = await fetch(info.url, { headers: auth });
    if (!file.ok) throw new Error(`media ${id}: download answered HTTP ${file.status}`);
    return Buffer.from(await file.arrayBuffer());
  }

  private explain(err: unknown): string {
    const text = err instanceof Error ? err.message : String(err);
    return text.split(this.opts.token).join("<token>");
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.removeAllListeners("data");
        req.pause();
        return resolve(undefined);
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
