// Telegram as a gateway platform: one poller (or webhook) per bot token on the machine (two would
// take each other's updates: 409 "terminated by other getUpdates request", or move the webhook).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { Speech } from "../voice/speech.js";
import { TelegramAdapter } from "./adapter.js";
import { config, type TelegramConfig } from "./config.js";

/** The webhook's secret token: the configured variable's, else one derived from the bot token. */
function webhookSecret(c: TelegramConfig, place: PlatformPlace, token: string): string {
  const name = c.webhook?.secret_token_env;
  if (name === undefined) return createHash("sha256").update(`iris telegram webhook\n${token}`).digest("hex");
  const secret = place.env[name]?.trim() ?? "";
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret))
    throw new Error(
      `gateway.platforms.telegram.webhook.secret_token_env: ${name} ${secret ? "holds characters Telegram does not allow (1-256 of A-Z a-z 0-9 _ -)" : "is not set"}; put the secret in the profile's .env as ${name}=…`,
    );
  return secret;
}

function tokenOf(c: TelegramConfig, place: PlatformPlace): string {
  const token = place.env[c.token_env]?.trim();
  if (!token)
    throw new Error(
      `gateway.platforms.telegram: ${c.token_env} is not set; put the bot token from @BotFather in the profile's .env as ${c.token_env}=…`,
    );
  return token;
}

export default definePlatform<TelegramConfig>({
  id: "telegram",
  schema: config,
  create: (c, ctx) =>
    new TelegramAdapter({
      token: tokenOf(c, ctx),
      tokenEnv: c.token_env,
      ...(c.api_root ? { apiRoot: c.api_root.replace(/\/+$/, "") } : {}),
      pollTimeoutSeconds: c.poll_timeout_seconds,
      ...(c.webhook
        ? {
            webhook: {
              url: c.webhook.url,
              host: c.webhook.listen_host,
              port: c.webhook.listen_port,
              secretToken: webhookSecret(c, ctx, tokenOf(c, ctx)),
            },
          }
        : {}),
      filesDir: join(ctx.home, "gateway-files", "telegram"),
      logger: ctx.logger,
      ...(c.voice ? { speech: new Speech(c.voice, ctx.env, "telegram") } : {}),
    }),
  // The token's hash: the same bot through any API server is one poller.
  identity: (c, place) => `telegram:${createHash("sha256").update(tokenOf(c, place)).digest("hex")}`,
  // The part before the colon is the bot's public id; the rest is the secret.
  describe: (c, place) => `bot ${tokenOf(c, place).split(":")[0]}`,
  eventsOverHttp: (c) => c.webhook !== undefined,
  allowedUsers: (c) => c.allowed_users.map(String),
  sendTargets: () => [],
  formattingHint:
    "This chat is Telegram: replies are shown as plain text (Markdown is not rendered, so avoid *, _ and backticks for emphasis); keep answers short.",
  targetExample: "telegram:CHAT_ID",
  startNotice: (adapter) => {
    const port = adapter instanceof TelegramAdapter ? adapter.webhookPort : undefined;
    return port !== undefined ? `telegram: webhook listening on port ${port}` : undefined;
  },
});
