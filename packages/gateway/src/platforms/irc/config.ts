// gateway.platforms.irc (SPEC G1).
import { z } from "zod";

const nonEmpty = z.string().min(1);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const config = z
  .strictObject({
    server: nonEmpty.describe("IRC server host name."),
    port: z.int().min(1).max(65535).default(6667),
    tls: z.boolean().default(false),
    nick: nonEmpty.describe("The bot's nick (also what a channel message must mention)."),
    channels: z.array(nonEmpty).default([]).describe("Channels to join, e.g. #iris."),
    allowed_users: z
      .array(nonEmpty)
      .default([])
      .describe(
        "Allowed without pairing: a nick (bound to the nick!user@host it first speaks from, with its services account where the server tags messages with IRCv3 account-tag; the nick from any other mask or account is a stranger), or a mask nick!user@host (* and ? wildcards; `*!*@* account=NAME` admits a services account from anywhere).",
      ),
    sasl: z
      .strictObject({
        account: nonEmpty.describe("The bot's services account."),
        password_env: envName
          .default("IRC_SASL_PASSWORD")
          .describe("Variable holding the account's password (in the profile's .env or the environment)."),
      })
      .optional()
      .describe(
        "Log the bot in with SASL PLAIN before it registers; a failed login stops the connection instead of running unidentified.",
      ),
  })
  .describe("IRC (irc-framework).");

export type IrcConfig = z.output<typeof config>;
