// Discord as a gateway platform: one Gateway connection per bot token on the machine (two would
// both answer every message).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { DiscordAdapter } from "./adapter.js";
import { config, type DiscordConfig } from "./config.js";

function tokenOf(c: DiscordConfig, place: PlatformPlace): string {
  const token = place.env[c.token_env]?.trim();
  if (!token)
    throw new Error(
      `gateway.platforms.discord: ${c.token_env} is not set; put the bot token from the Developer Portal in the profile's .env as ${c.token_env}=…`,
    );
  return token;
}

/** A token's first part is the bot's user id in base64: public, unlike the rest. */
function botIdOf(token: string): string | undefined {
  const id = Buffer.from(token.split(".")[0] ?? "", "base64").toString("utf8");
  return /^\d{15,22}$/.test(id) ? id : undefined;
}

export default definePlatform<DiscordConfig>({
  id: "discord",
  schema: config,
  create: (c, ctx) =>
    new DiscordAdapter({
      token: tokenOf(c, ctx),
      tokenEnv: c.token_env,
      ...(c.api_base ? { apiBase: c.api_base.replace(/\/+$/, "") } : {}),
      ...(c.gateway_url ? { gatewayUrl: c.gateway_url } : {}),
      filesDir: join(ctx.home, "gateway-files", "discord"),
      requestTimeoutMs: c.request_timeout_seconds * 1000,
      logger: ctx.logger,
    }),
  identity: (c, place) => `discord:${createHash("sha256").update(tokenOf(c, place)).digest("hex")}`,
  describe: (c, place) => {
    const id = botIdOf(tokenOf(c, place));
    return id ? `bot ${id}` : "a Discord bot";
  },
  allowedUsers: (c) => c.allowed_users,
  sendTargets: () => [],
  formattingHint:
    "This chat is Discord: replies are shown as Discord Markdown (**bold**, *italic*, `code`, ``` blocks; no tables); a message holds at most 2000 characters.",
  targetExample: "discord:CHANNEL_ID",
});
