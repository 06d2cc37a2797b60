// IRC as a gateway platform: one bot per server, port and nick; channels are send targets.
import { definePlatform } from "../plugin.js";
import { IrcAdapter } from "./adapter.js";
import { config, type IrcConfig } from "./config.js";
import { saslOf } from "./sasl.js";

export default definePlatform<IrcConfig>({
  id: "irc",
  schema: config,
  create: (c, ctx) => new IrcAdapter({ ...c, sasl: saslOf(c.sasl, ctx.env) }),
  identity: (c) => `irc:${c.server.toLowerCase()}:${c.port}:${c.nick.toLowerCase()}`,
  describe: (c) => `bot ${c.nick}`,
  allowedUsers: (c) => c.allowed_users,
  sendTargets: (c) => [...c.channels, ...c.allowed_users.map(nickOf).filter((n) => n !== undefined)],
  formattingHint:
    "This chat is IRC: plain text only, no Markdown (asterisks and backticks show literally); keep lines short.",
  targetExample: "irc:#team",
});

/** The nick an allowlist entry names ("bob", or "bob" of the mask "bob!*@home"); none for a pattern over nicks. */
function nickOf(entry: string): string | undefined {
  const nick = entry.split("!")[0] ?? "";
  return nick && !/[*?]/.test(nick) ? nick : undefined;
}
