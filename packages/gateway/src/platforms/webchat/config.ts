// gateway.platforms.webchat (SPEC G1): the page listens on loopback only.
import { z } from "zod";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export const config = z
  .strictObject({
    host: z
      .string()
      .default("127.0.0.1")
      .refine((h) => LOOPBACK.has(h), {
        message: "the web chat listens on loopback only (127.0.0.1, ::1 or localhost)",
      })
      .describe("Loopback address the web chat listens on."),
    port: z.int().min(0).max(65535).default(8787).describe("Port of the web chat (0: any free port)."),
    bot_name: z.string().min(1).default("iris").describe("The bot's name: what a room message must mention."),
  })
  .describe(
    "The web chat page, served by the gateway; each user logs in with their own token (iris gateway webchat add-user NAME).",
  );

export type WebchatConfig = z.output<typeof config>;
