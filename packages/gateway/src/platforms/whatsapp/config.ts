// gateway.platforms.whatsapp (SPEC G1): the WhatsApp Business Cloud API. Messages come in on a
// webhook Meta calls (signed with the app secret), answers go out through the Graph API. The
// access token, app secret and verify token are read from the profile's environment.
import { z } from "zod";
import { voiceSchema } from "../voice/config.js";

const envName = (def: string, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
    .default(def)
    .describe(`The environment variable (or .env key) that holds ${what}.`);

export const config = z
  .strictObject({
    phone_number_id: z
      .string()
      .regex(/^\d+$/, "the numeric phone number id")
      .describe("The business phone number's id."),
    token_env: envName("WHATSAPP_TOKEN", "the Graph API access token"),
    app_secret_env: envName(
      "WHATSAPP_APP_SECRET",
      "the app secret (X-Hub-Signature-256 of each webhook call)",
    ),
    verify_token_env: envName(
      "WHATSAPP_VERIFY_TOKEN",
      "the webhook's verify token (the hub.challenge handshake)",
    ),
    api_root: z
      .url({ protocol: /^https?$/ })
      .default("https://graph.facebook.com")
      .describe("The Graph API's root."),
    api_version: z
      .string()
      .regex(/^v\d+\.\d+$/, "like v21.0")
      .default("v21.0")
      .describe("The Graph API version."),
    host: z
      .string()
      .min(1)
      .default("127.0.0.1")
      .describe("Where the webhook listens (behind your HTTPS proxy)."),
    port: z
      .int()
      .min(0)
      .max(65535)
      .default(8789)
      .describe("Its port (0: any free one); the path is /whatsapp."),
    allowed_users: z
      .array(z.string().regex(/^\d{6,16}$/, "a phone number in digits, with country code"))
      .default([])
      .describe("Users allowed without pairing: WhatsApp ids (phone numbers in digits)."),
    template: z
      .strictObject({
        name: z.string().min(1).describe("An approved message template."),
        language: z.string().min(2).default("en_US").describe("Its language code."),
      })
      .optional()
      .describe(
        "Outside WhatsApp's 24-hour window only a template may be sent: this one goes instead, and the answer follows when the user writes again. Without it the answer is refused with a log line.",
      ),
    voice: voiceSchema.optional(),
  })
  .describe("WhatsApp Business Cloud API (signed webhook in, Graph API out).");

export type WhatsappConfig = z.output<typeof config>;
