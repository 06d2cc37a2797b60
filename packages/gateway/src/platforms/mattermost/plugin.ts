// Mattermost as a gateway platform: one WebSocket per bot token and server on the machine (two
// would both answer every post).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { MattermostAdapter } from "./adapter.js";
import { config, type MattermostConfig } from "./config.js";

function tokenOf(c: MattermostConfig, place: PlatformPlace): string {
  const token = place.env[c.token_env]?.trim();
  if (!token)
    throw new Error(
      `gateway.platforms.mattermost: ${c.token_env} is not set; put the bot's access token in the profile's .env as ${c.token_env}=…`,
    );
  return token;
}

const serverOf = (c: MattermostConfig) => c.url.replace(/\/+$/, "").replace(/\/api\/v4$/, "");

export default definePlatform<MattermostConfig>({
  id: "mattermost",
  schema: config,
  create: (c, ctx) =>
    new MattermostAdapter({
      url: serverOf(c),
      token: tokenOf(c, ctx),
      tokenEnv: c.token_env,
      sinceFile: join(ctx.home, "gateway-files", "mattermost", "since"),
      filesDir: join(ctx.home, "gateway-files", "mattermost", "files"),
      logger: ctx.logger,
    }),
  identity: (c, place) =>
    `mattermost:${serverOf(c)}:${createHash("sha256").update(tokenOf(c, place)).digest("hex")}`,
  describe: (c) => `a bot on ${serverOf(c)}`,
  // Ids as they are; a username as its handle (@name).
  allowedUsers: (c) =>
    c.allowed_users.map((u) => (/^[a-z0-9]{26}$/.test(u) || u.startsWith("@") ? u : `@${u}`)),
  sendTargets: () => [],
  formattingHint:
    "This chat is Mattermost: Markdown is rendered (bold, italics, `code`, ``` blocks, tables, links); a post holds 16,383 characters.",
  targetExample: "mattermost:CHANNEL_ID",
});
