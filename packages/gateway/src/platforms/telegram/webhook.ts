// Telegram's webhook mode (SPEC G1): instead of long polling, Telegram POSTs each update to the
// public HTTPS `url` (a reverse proxy in front of this listener), with the secret token in
// X-Telegram-Bot-Api-Secret-Token; grammY's webhookCallback checks it (a request without it is a
// 401 that runs nothing) and answers only after the update was handed over (and claimed in the
// store), so an update a killed gateway never answered 200 is delivered again. Pending updates
// are kept (setWebhook with drop_pending_updates false, and no deleteWebhook at stop): Telegram
// delivers what came while the gateway was down once it is back.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@iris/llm";
import { type Bot, webhookCallback } from "grammy";

export interface WebhookOptions {
  /** The public URL Telegram posts to; its path is the one listened on. */
  url: string;
  host: string;
  port: number;
  secretToken: string;
}

/** The updates the adapter handles (polling asks for the same). */
export const ALLOWED_UPDATES: ("message" | "callback_query")[] = ["message", "callback_query"];

/** Listens for Telegram's POSTs, then points the bot's webhook here. */
export async function startWebhook(bot: Bot, o: WebhookOptions, logger: Logger): Promise<Server> {
  const path = new URL(o.url).pathname;
  // An update not handed over within the minute is answered with an error: Telegram sends it again.
  const take = webhookCallback(bot, "http", { secretToken: o.secretToken, timeoutMilliseconds: 60_000 });
  const server = createServer((req, res) => {
    if (req.method !== "POST" || new URL(req.url ?? "/", "http://x").pathname !== path)
      return void res.writeHead(404).end();
    take(req, res).catch((err: unknown) => {
      logger.warn("telegram webhook update not taken; Telegram will send it again", {
        error: err instanceof Error ? err.message : String(err),
      });
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err) =>
      reject(new Error(`webhook.listen_port ${o.port} on ${o.host}: ${err.message}`)),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  try {
    await bot.api.setWebhook(o.url, {
      secret_token: o.secretToken,
      allowed_updates: ALLOWED_UPDATES,
      drop_pending_updates: false,
    });
  } catch (err) {
    server.close();
    throw err;
  }
  return server;
}

/** The port a started webhook listens on. */
export const portOf = (server: Server | undefined): number | undefined =>
  (server?.address() as AddressInfo | null)?.port;
