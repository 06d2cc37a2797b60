// `web:`, `browser:` and `vision:` in config.yaml (SPEC T): the search backend and its key's
// variable, web_extract's limits, which private hosts the web tools may reach, the browser, and
// the model that describes images for a text-only main model.
import { z } from "zod";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const webSchema = z.strictObject({
  search: z
    .strictObject({
      backend: z
        .enum(["searxng", "brave", "tavily", "exa", "local"])
        .optional()
        .describe(
          "web_search's backend; unset: web_search is not offered. `local` needs no key: it searches pages web_extract has read.",
        ),
      base_url: z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe("The backend's URL (required for searxng; the others default to their public API)."),
      api_key_env: envName
        .optional()
        .describe("Variable holding the key (default BRAVE_API_KEY, TAVILY_API_KEY or EXA_API_KEY)."),
      max_results: z.int().min(1).max(20).default(5),
      cache_seconds: z.int().min(0).max(86_400).default(900).describe("How long an answer is reused."),
    })
    .prefault({}),
  extract: z
    .strictObject({
      max_chars: z
        .int()
        .min(1000)
        .max(2_000_000)
        .default(100_000)
        .describe("Markdown kept per page; the rest is cut with a note."),
      timeout_seconds: z.number().positive().max(300).default(20),
      concurrency: z.int().min(1).max(16).default(4).describe("Pages one call fetches at once."),
    })
    .prefault({}),
  allow_private: z
    .boolean()
    .default(false)
    .describe("Let the web and browser tools reach loopback, LAN and cloud-metadata addresses."),
  allow_hosts: z
    .array(z.string().min(1))
    .default([])
    .describe("Hosts (or host:port) reachable even when they are private, e.g. intranet.local."),
});

export const browserSchema = z.strictObject({
  enabled: z
    .boolean()
    .default(false)
    .describe(
      "Offer the browser_* tools (needs Chromium). Off by default: their 14 schemas go with every request, a real cost in a small context window.",
    ),
  executable: z
    .string()
    .min(1)
    .optional()
    .describe("Chromium's path; default chromium (or chromium-browser, google-chrome) on PATH."),
  idle_seconds: z
    .int()
    .min(5)
    .max(86_400)
    .default(120)
    .describe("A session's browser closes after this long unused."),
  action_timeout_seconds: z
    .number()
    .positive()
    .max(120)
    .default(5)
    .describe("How long a click or type waits for its element."),
  headless: z.boolean().default(true),
});

export const visionSchema = z.strictObject({
  model: z
    .string()
    .regex(/^[^/\s]+\/\S+$/, "provider/model")
    .optional()
    .describe("provider/model that describes images when the main model cannot read them (vision_analyze)."),
});
