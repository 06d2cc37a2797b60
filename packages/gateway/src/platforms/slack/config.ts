// gateway.platforms.slack (SPEC G1): the bot token, the app-level token (Socket Mode) and the
// signing secret (HTTP Events API) are read from the profile's environment (its .env), never from
// config.yaml. Users are allowed by their stable member id, never a display name.
import { z } from "zod";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const config = z
  .strictObject({
    mode: z
      .enum(["socket", "http"])
      .default("socket")
      .describe(
        "socket: Socket Mode (a WebSocket the bot opens; no public URL needed). http: the Events API posts signed requests to http_port.",
      ),
    token_env: envName
      .default("SLACK_BOT_TOKEN")
      .describe(
        "The environment variable (or .env key) that holds the bot token (xoxb-…, OAuth & Permissions).",
      ),
    app_token_env: envName
      .default("SLACK_APP_TOKEN")
      .describe("Socket Mode: the variable that holds the app-level token (xapp-…, with connections:write)."),
    signing_secret_env: envName
      .default("SLACK_SIGNING_SECRET")
      .describe("HTTP mode: the variable that holds the app's signing secret (Basic Information)."),
    http_host: z
      .string()
      .min(1)
      .default("127.0.0.1")
      .describe("HTTP mode: the address the events endpoint listens on."),
    http_port: z
      .int()
      .min(0)
      .max(65535)
      .default(3000)
      .describe("HTTP mode: the port of the events endpoint (/slack/events; 0: any free port)."),
    api_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Web API root (default https://slack.com/api/)."),
    allowed_users: z
      .array(
        z
          .string()
          .regex(/^[UW][A-Z0-9]{2,}$/, "a Slack member id (U…: profile → ⋮ → Copy member ID), never a name"),
      )
      .default([])
      .describe("Users allowed without pairing: Slack member ids."),
  })
  .describe("Slack (Bolt: Socket Mode or the HTTP Events API).");

export type SlackConfig = z.output<typeof config>;
