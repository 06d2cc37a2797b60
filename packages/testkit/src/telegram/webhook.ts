// The fake Bot API's webhook (core.telegram.org/bots/api#setwebhook), as strict as Telegram where
// Iris depends on it: setWebhook wants an HTTPS URL on port 443, 80, 88 or 8443 (the one allowance
// of this fake: plain http to a loopback address, the gateway's listener in a test) and a secret
// token of 1-256 of A-Z a-z 0-9 _ -; while a webhook is set getUpdates is a 409; each update is
// POSTed, in order, with X-Telegram-Bot-Api-Secret-Token, and is gone only once answered 2xx — a
// refused connection or any other answer is retried later (getWebhookInfo shows the last error).
import type { TgUpdate } from "./types.js";

const bad = (what: string) => ({ code: 400, description: `Bad Request: ${what}` });

export class WebhookSender {
  url: string | undefined;
  private secret: string | undefined;
  private lastError: { date: number; message: string } | undefined;
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  /** POSTs made (retries included). */
  posts = 0;

  constructor(
    /** The oldest update not yet delivered. */
    private readonly next: () => TgUpdate | undefined,
    /** An update answered 2xx: gone for good. */
    private readonly delivered: (u: TgUpdate) => void,
    private readonly retryMs: number,
  ) {}

  /** setWebhook's checks; undefined when set, else Telegram's error. */
  set(p: Record<string, unknown>): { code: number; description: string } | undefined {
    const url = typeof p.url === "string" ? p.url : "";
    if (url === "") {
      this.clear();
      return undefined;
    }
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return bad("bad webhook: Failed to resolve host: Name or service not known");
    }
    const loopback = u.protocol === "http:" && (u.hostname === "127.0.0.1" || u.hostname === "localhost");
    if (u.protocol !== "https:" && !loopback)
      return bad("bad webhook: An HTTPS URL must be provided for webhook");
    if (!loopback && !["", "443", "80", "88", "8443"].includes(u.port))
      return bad("bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443");
    const secret = p.secret_token;
    if (secret !== undefined && (typeof secret !== "string" || !/^[A-Za-z0-9_-]{1,256}$/.test(secret)))
      return bad("secret token contains unallowed characters");
    this.url = url;
    this.secret = secret as string | undefined;
    this.lastError = undefined;
    this.kick();
    return undefined;
  }

  clear(): void {
    this.url = undefined;
    clearTimeout(this.timer);
  }

  info(pending: number): Record<string, unknown> {
    return {
      url: this.url ?? "",
      has_custom_certificate: false,
      pending_update_count: pending,
      ...(this.lastError
        ? { last_error_date: this.lastError.date, last_error_message: this.lastError.message }
        : {}),
    };
  }

  /** Delivers the next update, if a webhook is set and none is on its way. */
  kick(): void {
    const url = this.url;
    if (!url || this.busy) return;
    const u = this.next();
    if (!u) return;
    this.busy = true;
    void this.post(url, u);
  }

  private async post(url: string, u: TgUpdate): Promise<void> {
    this.posts++;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.secret ? { "x-telegram-bot-api-secret-token": this.secret } : {}),
        },
        body: JSON.stringify(u),
        signal: AbortSignal.timeout(60_000),
      });
      await res.text();
      if (res.ok) {
        this.delivered(u);
        this.busy = false;
        return this.kick();
      }
      this.failed(`Wrong response from the webhook: ${res.status} ${res.statusText}`);
    } catch {
      this.failed("Connection refused");
    }
  }

  private failed(message: string): void {
    this.lastError = { date: Math.floor(Date.now() / 1000), message };
    this.busy = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), this.retryMs);
    this.timer.unref();
  }
}
