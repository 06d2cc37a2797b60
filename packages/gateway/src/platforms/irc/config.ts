// gateway.platforms.irc (SPEC G1).
import { z } from "zod";

const nonEmpty = z.string().min(1);

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
        "Allowed without pairing: a nick (bound to the nick!user@host it first speaks from; the nick from any other mask is a stranger), or a mask nick!user@host (* and ? wildcards).",
      ),
  })
  .describe("IRC (irc-framework).");

export type IrcConfig = z.output<typeof config>;
