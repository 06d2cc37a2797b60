// gateway.platforms.discord (SPEC G1): the bot token is read from the profile's environment
// (its .env), never from config.yaml. Users are allowed by their stable id, never a name.
import { z } from "zod";

export const config = z
  .strictObject({
    token_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
      .default("DISCORD_BOT_TOKEN")
      .describe("The environment variable (or .env key) that holds the bot token (Developer Portal → Bot)."),
    api_base: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        "REST API root (default https://discord.com/api); the Gateway's URL comes from its /gateway/bot unless gateway_url is set.",
      ),
    gateway_url: z
      .url({ protocol: /^wss?$/ })
      .optional()
      .describe(
        "Gateway WebSocket URL (default: the one /gateway/bot names), e.g. a proxy in front of Discord's Gateway.",
      ),
    request_timeout_seconds: z
      .number()
      .positive()
      .max(300)
      .default(15)
      .describe(
        "How long one REST call may take before it is tried again (a repeated message create is dropped by its nonce).",
      ),
    allowed_users: z
      .array(
        z
          .string()
          .regex(/^\d{15,22}$/, "a Discord user id (digits: Developer Mode → Copy User ID), never a name"),
      )
      .default([])
      .describe(
        "Users allowed without pairing: Discord user ids (quoted: they are too long for a YAML number).",
      ),
  })
  .describe("Discord (discord.js, the Gateway WebSocket).");

export type DiscordConfig = z.output<typeof config>;
