// gateway.platforms.telegram (SPEC G1): the bot token is read from the profile's environment
// (its .env), never from config.yaml.
import { z } from "zod";
import { voiceSchema } from "../voice/config.js";

export const config = z
  .strictObject({
    token_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
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
    voice: voiceSchema.optional(),
  })
  .describe("Telegram (grammY, long polling).");

export type TelegramConfig = z.output<typeof config>;
