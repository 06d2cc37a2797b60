// Webhooks in (SPEC G1): `POST /hooks/<name>` on a small HTTP server. A request runs only when its
// signature (or shared secret) is right: anything else is answered 401 before its body is read as
// JSON, and runs nothing. Bodies over the cap get 413 and are not read further. Each delivery is
// its own session (chat: the route, thread: the delivery id), and a delivery id seen before
// runs once (here while the process lives, and by the runner's inbound dedupe across restarts,
// whose "duplicate" answers the waiting request at once).
// The answer is the HTTP response (within the route's timeout, else a 202) or goes to the
// configured chat of another platform through that platform's outbox.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "@iris/llm";
import type {
  AdapterHost,
  OnMessage,
  PlatformAdapter,
  PlatformLimits,
  SendOptions,
  SendResult,
} from "../../adapter.js";
import type { ChatAddress, InboundMessage } from "../../message.js";
import type { WebhookRoute } from "./config.js";
import { renderPrompt, signatureValid, tokenValid } from "./verify.js";

export const PLATFORM = "webhooks";

export interface WebhookOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
  routes: Record<string, WebhookRoute & { secret: string }>;
  logger: Logger;
}

/** Delivery ids remembered in memory (the runner's store remembers them longer). */
const SEEN_KEEP = 10_000;

interface Waiting {
  res: ServerResponse;
  timer: NodeJS.Timeout;
  delivery: string;
}

export class WebhookAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  // The signature authenticated the sender: no allowlist or pairing applies.
  readonly authenticated = true;
  // One answer is one response: never split.
  readonly limits: PlatformLimits = { maxMessage: 1_000_000, measure: (t) => t.length, minEditIntervalMs: 0 };
  private server: Server | undefined;
  private host: AdapterHost | undefined;
  private readonly seen = new Set<string>();
  private readonly waiting = new Map<string, Waiting>();
  url = "";

  constructor(private readonly opts: WebhookOptions) {}

  botNames(): string[] {
    return [];
  }

  async start(onMessage: OnMessage, host?: AdapterHost): Promise<void> {
    this.host = host;
    const server = createServer((req, res) => {
      this.handle(req, res, onMessage).catch((err) => {
        this.opts.logger.warn("webhook request failed", {
          error: err instanceof Error ? err.message : String(err),
        });
        if (!res.headersSent) reply(res, 500, { error: "internal error" });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err) =>
        reject(new Error(`webhook: cannot listen on ${this.opts.host}:${this.opts.port}: ${err.message}`)),
      );
      server.listen(this.opts.port, this.opts.host, resolve);
    });
    this.server = server;
    const a = server.address();
    const port = typeof a === "object" && a ? a.port : this.opts.port;
    this.url = `http://${this.opts.host.includes(":") ? `[${this.opts.host}]` : this.opts.host}:${port}/hooks/`;
  }

  async stop(): Promise<void> {
    for (const [k, w] of this.waiting) {
      clearTimeout(w.timer);
      reply(w.res, 202, { delivery: w.delivery, status: "accepted" });
      this.waiting.delete(k);
    }
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    server?.closeAllConnections();
  }

  async send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    const route = this.opts.routes[to.chatId];
    const delivery = to.threadId ?? "";
    if (route && route.deliver !== "http") {
      const [platform = "", ...rest] = route.deliver.split(":");
      if (!this.host?.post) throw new Error("webhook: this gateway cannot deliver to other platforms");
      await this.host.post(
        `webhooks:${opts.key ?? `${to.chatId}:${delivery}`}`,
        { platform, chatId: rest.join(":") },
        text,
      );
      return {};
    }
    const key = `${to.chatId}/${delivery}`;
    const w = this.waiting.get(key);
    if (!w) {
      this.opts.logger.warn("webhook answer had no request waiting for it (timed out)", {
        route: to.chatId,
        delivery,
      });
      return {};
    }
    clearTimeout(w.timer);
    this.waiting.delete(key);
    reply(w.res, 200, { delivery, reply: text });
    return {};
  }

  private async handle(req: IncomingMessage, res: ServerResponse, onMessage: OnMessage): Promise<void> {
    const m = /^\/hooks\/([a-z0-9][a-z0-9_-]*)\/?$/.exec((req.url ?? "").split("?")[0] ?? "");
    const name = m?.[1] ?? "";
    const route = Object.hasOwn(this.opts.routes, name) ? this.opts.routes[name] : undefined;
    if (!route) return reply(res, 404, { error: "no such webhook route" });
    if (req.method !== "POST") return reply(res, 405, { error: "POST only" }, { allow: "POST" });
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > this.opts.maxBodyBytes) return tooLarge(res, this.opts.maxBodyBytes);
    const body = await readBody(req, this.opts.maxBodyBytes);
    if (!body) return tooLarge(res, this.opts.maxBodyBytes);
    const header = (h: string) => {
      const v = req.headers[h.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    };
    const ok =
      route.auth === "hmac_sha256"
        ? signatureValid(route.secret, body, header("x-hub-signature-256"))
        : tokenValid(route.secret, header(route.token_header));
    if (!ok) {
      this.opts.logger.warn("webhook refused: bad signature", { route: name });
      return reply(res, 401, {
        error:
          route.auth === "hmac_sha256"
            ? "bad or missing X-Hub-Signature-256"
            : `bad or missing ${route.token_header}`,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      return reply(res, 400, { error: "the body is not JSON" });
    }
    const delivery = (
      header(route.delivery_header)?.trim() || createHash("sha256").update(body).digest("hex")
    ).slice(0, 200);
    const id = `${name}:${delivery}`;
    if (this.seen.has(id)) return reply(res, 200, { delivery, status: "duplicate" });
    this.seen.add(id);
    if (this.seen.size > SEEN_KEEP) this.seen.delete(this.seen.values().next().value ?? "");
    const msg: InboundMessage = {
      platform: PLATFORM,
      chatType: "dm",
      chatId: name,
      threadId: delivery,
      userId: `hook:${name}`,
      userName: `webhook ${name}`,
      text: renderPrompt(route.prompt, json),
      // A body that renders to "/yolo …" is still the route's prompt, not the gateway's command.
      promptOnly: true,
      attachments: [],
      messageId: id,
    };
    if (route.deliver === "http") {
      const key = `${name}/${delivery}`;
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        reply(res, 202, { delivery, status: "accepted" });
      }, route.response_timeout_seconds * 1000);
      this.waiting.set(key, { res, timer, delivery });
    }
    // Acknowledged once the delivery is taken in (its inbound row committed): a process that dies
    // before that leaves the sender to retry, to this replica or another.
    const outcome = await onMessage(msg);
    // Taken in before (a sender's retry after a restart, or by another replica): nothing runs.
    const waiting = this.waiting.get(`${name}/${delivery}`);
    if (outcome === "duplicate") {
      if (waiting) clearTimeout(waiting.timer);
      this.waiting.delete(`${name}/${delivery}`);
      reply(res, 200, { delivery, status: "duplicate" });
    } else if (route.deliver !== "http") reply(res, 202, { delivery, status: "accepted" });
  }
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function tooLarge(res: ServerResponse, max: number): void {
  reply(res, 413, { error: `the body is larger than ${max} bytes` }, { connection: "close" });
}

/** The body, or undefined once it passes `max` bytes (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
