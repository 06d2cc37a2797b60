// gateway.platforms.webhooks (SPEC G1): signed HTTP requests that hand the agent a task. Each
// route is `POST /hooks/<name>` with its own secret (read from the profile's environment), a
// prompt template over the JSON body, and where the answer goes.
import { z } from "zod";

const route = z
  .strictObject({
    secret_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
      .describe("The environment variable (or .env key) that holds this route's secret."),
    auth: z
      .enum(["hmac_sha256", "token"])
      .default("hmac_sha256")
      .describe(
        "hmac_sha256: X-Hub-Signature-256 is sha256=HMAC of the body (GitHub's scheme); token: token_header carries the secret itself.",
      ),
    token_header: z
      .string()
      .min(1)
      .default("X-Webhook-Token")
      .describe("The header of the shared secret (auth: token)."),
    delivery_header: z
      .string()
      .min(1)
      .default("X-GitHub-Delivery")
      .describe("The header with the delivery's id (repeats are run once); without it, the body's hash."),
    prompt: z
      .string()
      .min(1)
      .describe(
        "The task: {{path.to.field}} is replaced by that field of the JSON body, {{body}} by all of it.",
      ),
    deliver: z
      .union([z.literal("http"), z.string().regex(/^[a-z][a-z0-9]*:.+$/, "http or PLATFORM:CHAT")])
      .default("http")
      .describe("Where the answer goes: http (the response to the request) or a chat (PLATFORM:CHAT)."),
    toolsets: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "The toolsets this route's turns may use ([]: none). Its prompt carries another system's text, which may try to steer the model: give it only what the task needs, e.g. [safe] (web and vision) or [file].",
      ),
    response_timeout_seconds: z
      .int()
      .min(1)
      .max(600)
      .default(120)
      .describe("deliver: http: how long the request waits for the answer before a 202."),
  })
  .describe("One webhook route.");

export const config = z
  .strictObject({
    host: z.string().min(1).default("127.0.0.1").describe("Where the webhook server listens."),
    port: z.int().min(0).max(65535).default(8788).describe("Its port (0: any free one)."),
    max_body_bytes: z
      .int()
      .min(1)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024)
      .describe("Larger requests are refused with 413 before they run."),
    routes: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "a route name: lowercase letters, digits, - and _"),
        route,
      )
      .refine((r) => Object.keys(r).length > 0, "at least one route")
      .describe("The routes, by name: POST /hooks/<name>."),
  })
  .describe("Webhooks in: signed HTTP requests that run a prompt.");

export type WebhookConfig = z.output<typeof config>;
export type WebhookRoute = WebhookConfig["routes"][string];
