// gateway.platforms.telegram (SPEC G1): the bot token is read from the profile's environment
// (its .env), never from config.yaml.
import { z } from "zod";
import { voiceSchema } from "../voice/config.js";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

const webhook = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .describe(
        "The public HTTPS URL Telegram posts updates to (ports 443, 80, 88 or 8443; a reverse proxy in front of listen_port). Its path is the one listened on.",
      ),
    listen_host: z.string().min(1).default("127.0.0.1").describe("The address the webhook listener binds."),
    listen_port: z
      .int()
      .min(0)
      .max(65535)
      .default(8443)
      .describe("The port the webhook listener binds (the proxy forwards the URL to it)."),
    secret_token_env: envName
      .optional()
      .describe(
        "The variable (or .env key) with the secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (1-256 of A-Z a-z 0-9 _ -); default: one derived from the bot token.",
      ),
  })
  .describe("Webhook mode: Telegram posts updates here instead of the bot polling for them.");

export const config = z
  .strictObject({
    token_env: envName
      .default("TELEGRAM_BOT_TOKEN")
      .describe("The environment variable (or .env key) that holds the bot token from @BotFather."),
    api_root: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Bot API server (default https://api.telegram.org; a self-hosted telegram-bot-api server)."),
    allowed_users: z
      .array(z.union([z.string().min(1), z.int()]))
      .default([])
      .describe("Users allowed without pairing: numeric user ids or @usernames."),
    poll_timeout_seconds: z
      .int()
      .min(0)
      .max(50)
      .default(30)
      .describe("How long one getUpdates long poll waits for updates."),
    webhook: webhook.optional(),
    voice: voiceSchema.optional(),
  })
  .describe("Telegram (grammY: long polling, or a webhook when `webhook` is set).");

export type TelegramConfig = z.output<typeof config>;
