// `gateway:` in config.yaml (SPEC G1–G4): who may talk to the bot, when it answers in groups,
// what a message does while a turn runs, and the platforms it connects to.
import { z } from "zod";

const nonEmpty = z.string().min(1);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const ircSchema = z
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

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export const webchatSchema = z
  .strictObject({
    host: z
      .string()
      .default("127.0.0.1")
      .refine((h) => LOOPBACK.has(h), {
        message: "the web chat listens on loopback only (127.0.0.1, ::1 or localhost)",
      })
      .describe("Loopback address the web chat listens on."),
    port: z.int().min(0).max(65535).default(8787).describe("Port of the web chat (0: any free port)."),
    bot_name: nonEmpty.default("iris").describe("The bot's name: what a room message must mention."),
  })
  .describe(
    "The web chat page, served by the gateway; each user logs in with their own token (iris gateway webchat add-user NAME).",
  );

export const gatewaySchema = z.strictObject({
  busy_policy: z
    .enum(["interrupt", "queue", "steer"])
    .default("interrupt")
    .describe(
      "A message while a turn runs: interrupt it and answer the new one, queue it for after, or steer (inject it into the running turn).",
    ),
  allow_all: z.boolean().default(false).describe("Answer everyone: no allowlist, no pairing."),
  require_mention: z
    .boolean()
    .default(true)
    .describe("In group chats, answer only when mentioned, replied to, or called by a wake word."),
  wake_words: z.array(nonEmpty).default([]).describe("Words that count as a mention in group chats."),
  group_sessions: z
    .enum(["shared", "per_user"])
    .default("shared")
    .describe("One session per group chat (speakers merged with names), or one per user in it."),
  pairing: z
    .strictObject({
      code_ttl_minutes: z.int().min(1).max(10_080).default(60),
      max_pending: z.int().min(1).max(1000).default(10).describe("Codes waiting at once per platform."),
    })
    .prefault({}),
  idle_session_minutes: z
    .int()
    .min(1)
    .max(10_080)
    .default(30)
    .describe(
      "A chat's session is closed in memory after this long without messages (it stays in the store).",
    ),
  dashboard: z
    .boolean()
    .default(false)
    .describe("Also run the dashboard (dashboard.host/port) inside `iris gateway run`."),
  platforms: z
    .strictObject({
      irc: ircSchema.optional(),
      webchat: webchatSchema.optional(),
    })
    .prefault({}),
});

export type GatewayConfig = z.output<typeof gatewaySchema>;
export type IrcConfig = z.output<typeof ircSchema>;
export type WebchatConfig = z.output<typeof webchatSchema>;
