// `serve:` in config.yaml: the OpenAI-compatible API server (`iris serve`, SPEC E3).
import { z } from "zod";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const serveKeySchema = z
  .strictObject({
    name: z.string().min(1).max(64).describe("Who holds the key (shown in logs, never the key)."),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits (`iris serve hash-key` prints them)")
      .optional()
      .describe("The key's SHA-256, hex: the key itself is never stored."),
    env: envName.optional().describe("A variable (in the profile's .env) holding the key itself."),
  })
  .refine((k) => (k.sha256 === undefined) !== (k.env === undefined), {
    message: "give exactly one of sha256 or env",
  });

export const serveSchema = z.strictObject({
  host: z.string().min(1).default("127.0.0.1").describe("Address to bind; not loopback needs api_keys."),
  port: z.int().min(0).max(65535).default(8642),
  api_keys: z.array(serveKeySchema).default([]).describe("Bearer keys accepted; required off loopback."),
  approvals: z
    .enum(["deny", "off"])
    .default("deny")
    .describe("Dangerous commands: deny (nobody can be asked) or off (run them; hard blocks stay)."),
  max_body_bytes: z.int().min(1024).max(1_073_741_824).default(4_194_304),
  max_concurrent_per_key: z.int().min(1).max(10_000).default(8).describe("Requests at once per API key."),
  queue_per_key: z
    .int()
    .min(0)
    .max(100_000)
    .default(64)
    .describe("Requests over max_concurrent_per_key that wait for a slot (FIFO) before a 429."),
  queue_timeout_seconds: z
    .number()
    .min(0)
    .max(3600)
    .default(60)
    .describe("How long a queued request waits for a slot before its 429."),
  requests_per_minute: z.int().min(1).max(1_000_000).default(120).describe("Per API key."),
  idempotency_ttl_seconds: z.int().min(1).max(86_400).default(300),
  responses_ttl_seconds: z
    .int()
    .min(1)
    .max(2_592_000)
    .default(3600)
    .describe("How long a stored response can be continued with previous_response_id."),
  responses_max: z
    .int()
    .min(1)
    .max(1_000_000)
    .default(1000)
    .describe("Stored responses kept (oldest go first)."),
  tool_progress: z
    .enum(["details", "off"])
    .default("details")
    .describe(
      "Tool progress in streamed text: a collapsed <details> block, or none (header X-Iris-Tool-Progress).",
    ),
  named_events: z
    .union([z.enum(["auto", "on", "off"]), z.boolean()])
    .default("auto")
    .describe(
      "Named SSE events iris.tool.progress and iris.turn (header X-Iris-Events: on|off). auto: on for chat completions, where they are choices:[] chunks every client passes over; off for Responses, whose SDK accumulator rejects unknown event types. true/false mean on/off.",
    ),
  models_per_route: z
    .boolean()
    .default(false)
    .describe("Also list iris/<provider>/<model> per configured route."),
  workdir: z
    .string()
    .min(1)
    .optional()
    .describe("One working directory for every session; default one per session under the profile."),
  shared_memory: z
    .boolean()
    .default(false)
    .describe("Let API sessions use the profile's memory and session search (shared by every API key)."),
});
