// gateway.platforms.signal (SPEC G1): Signal through a `signal-cli daemon --http` the user runs
// (signal-cli holds the account's keys; the daemon's HTTP API has no token, so keep it on
// loopback). Not bbernhard/signal-cli-rest-api, which is a different API.
import { z } from "zod";
import { voiceSchema } from "../voice/config.js";

const e164 = z.string().regex(/^\+\d{6,16}$/, "a phone number in E.164 form, like +15551234567");
const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "a Signal uuid");

export const config = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .default("http://127.0.0.1:8080")
      .describe("The signal-cli daemon's HTTP API (signal-cli daemon --http 127.0.0.1:8080)."),
    account: e164.describe("The bot's Signal account, as registered or linked in signal-cli."),
    allowed_users: z
      .array(z.union([e164, uuid]))
      .default([])
      .describe("Users allowed without pairing: phone numbers (E.164) or Signal uuids."),
    names: z
      .array(z.string().min(1))
      .default(["iris"])
      .describe("Names the bot answers to in groups (besides an @-mention of its account)."),
    ack_reaction: z
      .string()
      .max(8)
      .default("👀")
      .describe(
        'The reaction put on a message the bot takes (a DM, or a group message naming it); "" for none.',
      ),
    voice: voiceSchema.optional(),
  })
  .describe("Signal through the signal-cli daemon's HTTP API (SSE events in, JSON-RPC out).");

export type SignalConfig = z.output<typeof config>;
