// The web chat as a gateway platform: its port is the bot's identity; its users logged in with
// the token, so it has no allowlist.
import { join } from "node:path";
import { definePlatform } from "../plugin.js";
import { WebchatAdapter } from "./adapter.js";
import { config, type WebchatConfig } from "./config.js";

export default definePlatform<WebchatConfig>({
  id: "webchat",
  schema: config,
  create: (c, ctx) =>
    new WebchatAdapter({
      host: c.host,
      port: c.port,
      botName: c.bot_name,
      tokenFile: join(ctx.home, "webchat.token"),
    }),
  // The port is the bot's identity; "any free port" (0) can clash with nothing.
  identity: (c, ctx) => (c.port === 0 ? `webchat:${ctx.home}` : `webchat:${c.host}:${c.port}`),
  describe: (c) => `bot on ${c.host}:${c.port}`,
  allowedUsers: () => [],
  sendTargets: () => [],
  formattingHint: "This chat is a web page that renders Markdown (code blocks, lists, links).",
  targetExample: "webchat:ROOM",
  // The token goes to stderr only: never into the log file or a URL.
  startNotice: (a) =>
    a instanceof WebchatAdapter ? `web chat at ${a.url} (login token: ${a.token})` : undefined,
});
