// The web chat as a gateway platform: its port is the bot's identity; each user logs in with
// their own token (iris gateway webchat add-user NAME), so it has no allowlist.
import { join } from "node:path";
import { definePlatform } from "../plugin.js";
import { WebchatAdapter } from "./adapter.js";
import { config, type WebchatConfig } from "./config.js";
import { WebchatUsers } from "./users.js";

export default definePlatform<WebchatConfig>({
  id: "webchat",
  schema: config,
  create: (c, ctx) =>
    new WebchatAdapter({
      host: c.host,
      port: c.port,
      botName: c.bot_name,
      secretFile: join(ctx.home, "webchat.secret"),
    }),
  // The port is the bot's identity; "any free port" (0) can clash with nothing.
  identity: (c, ctx) => (c.port === 0 ? `webchat:${ctx.home}` : `webchat:${c.host}:${c.port}`),
  describe: (c) => `bot on ${c.host}:${c.port}`,
  allowedUsers: () => [],
  sendTargets: () => [],
  formattingHint: "This chat is a web page that renders Markdown (code blocks, lists, links).",
  targetExample: "webchat:ROOM",
  startNotice: async (a, host) => {
    if (!(a instanceof WebchatAdapter)) return undefined;
    const users = (await new WebchatUsers(host.identities).list()).length;
    return (
      `web chat at ${a.url} (${users} user${users === 1 ? "" : "s"}; ` +
      "each logs in with their own token from `iris gateway webchat add-user NAME`)"
    );
  },
});
