// Slack as a gateway platform: one connection per bot token on the machine (two Socket Mode
// connections split the events between them; two HTTP receivers cannot share a request URL).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { definePlatform, type PlatformPlace } from "../plugin.js";
import { SlackAdapter } from "./adapter.js";
import { config, type SlackConfig } from "./config.js";

function secretOf(place: PlatformPlace, name: string, what: string): string {
  const value = place.env[name]?.trim();
  if (!value)
    throw new Error(
      `gateway.platforms.slack: ${name} is not set; put ${what} in the profile's .env as ${name}=…`,
    );
  return value;
}

const tokenOf = (c: SlackConfig, place: PlatformPlace) =>
  secretOf(place, c.token_env, "the bot token (xoxb-…, OAuth & Permissions)");

export default definePlatform<SlackConfig>({
  id: "slack",
  schema: config,
  create: (c, ctx) =>
    new SlackAdapter({
      token: tokenOf(c, ctx),
      tokenEnv: c.token_env,
      mode: c.mode,
      ...(c.mode === "socket"
        ? {
            appToken: secretOf(
              ctx,
              c.app_token_env,
              "the app-level token (xapp-…, Basic Information → App-Level Tokens)",
            ),
          }
        : {
            signingSecret: secretOf(
              ctx,
              c.signing_secret_env,
              "the signing secret (Basic Information → App Credentials)",
            ),
            http: { host: c.http_host, port: c.http_port },
          }),
      ...(c.api_url ? { apiUrl: c.api_url } : {}),
      filesDir: join(ctx.home, "gateway-files", "slack"),
      logger: ctx.logger,
    }),
  identity: (c, place) => `slack:${createHash("sha256").update(tokenOf(c, place)).digest("hex")}`,
  describe: () => "a Slack bot",
  eventsOverHttp: (c) => c.mode === "http",
  allowedUsers: (c) => c.allowed_users,
  sendTargets: () => [],
  formattingHint:
    "This chat is Slack: write Markdown (**bold**, *italic*, `code`, ``` blocks, [links](url); no tables), it is shown as Slack mrkdwn; a message holds about 4000 characters.",
  targetExample: "slack:CHANNEL_ID",
  startNotice: (adapter) => {
    const port = adapter instanceof SlackAdapter ? adapter.httpPort : undefined;
    return port !== undefined ? `slack: events endpoint on port ${port} (/slack/events)` : undefined;
  },
});
