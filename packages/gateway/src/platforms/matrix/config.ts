// gateway.platforms.matrix (SPEC G1): one account on a homeserver; the access token is read from
// the profile's environment (its .env), never from config.yaml.
import { z } from "zod";
import { voiceSchema } from "../voice/config.js";

export const config = z
  .strictObject({
    homeserver: z
      .url({ protocol: /^https?$/ })
      .describe("The homeserver's client-server API URL (https://matrix.example.org)."),
    user_id: z
      .string()
      .regex(/^@[a-z0-9._=\-/+]+:[A-Za-z0-9.-]+(:\d+)?$/, "a Matrix user id like @iris:example.org")
      .describe("The bot's user id."),
    token_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
      .default("MATRIX_ACCESS_TOKEN")
      .describe("The environment variable (or .env key) that holds the bot's access token."),
    allowed_users: z
      .array(z.string().regex(/^@[^:]+:.+$/, "a Matrix user id like @me:example.org"))
      .default([])
      .describe("Users allowed without pairing (Matrix user ids)."),
    voice: voiceSchema.optional(),
  })
  .describe("Matrix (matrix-js-sdk, client-server API sync).");

export type MatrixConfig = z.output<typeof config>;
