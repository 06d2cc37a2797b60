// gateway.platforms.mattermost (SPEC G1): the bot's access token is read from the profile's
// environment (its .env), never from config.yaml.
import { z } from "zod";

export const config = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .describe("The Mattermost server's address (https://chat.example.com), without /api/v4."),
    token_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
      .default("MATTERMOST_TOKEN")
      .describe(
        "The environment variable (or .env key) that holds the bot's access token (System Console → Integrations → Bot Accounts) or a personal access token.",
      ),
    allowed_users: z
      .array(
        z
          .string()
          .regex(
            /^([a-z0-9]{26}|@?[A-Za-z0-9][A-Za-z0-9._-]*)$/,
            "a Mattermost user id (26 letters and digits) or a username",
          ),
      )
      .default([])
      .describe(
        "Users allowed without pairing: user ids, or usernames (a name is bound to the first account that speaks under it).",
      ),
  })
  .describe("Mattermost (@mattermost/client: the REST API v4 and the WebSocket).");

export type MattermostConfig = z.output<typeof config>;
