// The one description of config.yaml (SPEC K2, K5): defaults, validation and the editor's JSON
// Schema (config.schema.json, generated from this file) all come from here.
// Every object is strict: a misspelt key is an error, never silently ignored.
import type { ApiMode } from "@iris/llm";
import { mcpServersSchema } from "@iris/tools";
import { z } from "zod";
import { batchSchema } from "./batch-schema.js";
import { dashboardSchema } from "./dashboard-schema.js";
import { gatewaySchema } from "./gateway-schema.js";
import { hooksSchema } from "./hooks-schema.js";
import { queueSchema } from "./queue-schema.js";
import { serveSchema } from "./serve-schema.js";
import { codeExecutionSchema, terminalSchema } from "./terminal-schema.js";
import { browserSchema, visionSchema, webSchema } from "./web-schema.js";

const apiModes = ["chat_completions", "responses", "anthropic_messages"] as const;
// Fails to compile when the llm package's ApiMode and this list drift apart.
const _apiModesMatch: [ApiMode] extends [(typeof apiModes)[number]]
  ? [(typeof apiModes)[number]] extends [ApiMode]
    ? true
    : never
  : never = true;
void _apiModesMatch;

const nonEmpty = z.string().min(1);
const positiveInt = z.int().min(1).max(1_000_000_000);
const ratio = z.number().gt(0).lt(1);
/** Environment variable names, as used for `api_key_env` and similar fields. */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export const modelSchema = z
  .strictObject({
    provider: nonEmpty
      .optional()
      .describe("Provider id, e.g. openai, anthropic, openrouter, or a key of `providers`."),
    name: nonEmpty.optional().describe("Model name as the provider spells it."),
    context_window: positiveInt
      .optional()
      .describe("Overrides the context window from the model catalogue (tokens)."),
    vision: z
      .boolean()
      .optional()
      .describe("Whether the model reads images; overrides the catalogue (unknown models are sent images)."),
    reasoning: z
      .strictObject({
        effort: z
          .enum(["minimal", "low", "medium", "high"])
          .optional()
          .describe(
            "Reasoning effort: Responses `reasoning.effort`; on Chat Completions routes the provider's own field (reasoning_effort, OpenRouter's reasoning.effort, DeepSeek's thinking + reasoning_effort).",
          ),
        budget_tokens: z
          .int()
          .min(1024)
          .max(1_000_000)
          .optional()
          .describe(
            "Thinking budget in tokens (at least 1024): Anthropic extended thinking; OpenRouter's reasoning.max_tokens and Qwen's thinking_budget when no effort is set.",
          ),
      })
      .optional()
      .describe(
        "Reasoning for models the catalogue marks as reasoning models (or unknown models you name here).",
      ),
  })
  .describe("The model used unless --provider/--model say otherwise.");

export const providerSchema = z.strictObject({
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  api_mode: z.enum(apiModes).optional(),
  api_key_env: envName
    .optional()
    .describe("Name of the variable holding the key (default: the usual variable of the provider)."),
  api_key: nonEmpty
    .optional()
    .describe("A key written into config.yaml itself; prefer api_key_env and .env."),
  headers: z.record(z.string(), z.string()).optional(),
  timeouts: z
    .strictObject({
      first_byte_seconds: z
        .number()
        .gt(0)
        .max(3600)
        .optional()
        .describe("Longest wait for the first byte of a reply (default 60)."),
      idle_seconds: z
        .number()
        .gt(0)
        .max(3600)
        .optional()
        .describe("Longest silence inside a streamed reply (default 45)."),
    })
    .optional()
    .describe("When a silent route counts as stalled; a stall falls back at once when a fallback exists."),
});

export const fallbackSchema = z.strictObject({
  provider: nonEmpty,
  model: nonEmpty,
  base_url: z.url({ protocol: /^https?$/ }).optional(),
});

export const compressionSchema = z.strictObject({
  enabled: z.boolean().default(true),
  threshold: ratio.default(0.5).describe("Share of the context window at which the history is compressed."),
  target_ratio: ratio.default(0.2).describe("Share of the threshold the protected tail may use."),
  protect_last_n: z.int().min(0).max(10_000).default(20).describe("Newest messages never summarised."),
  summary_model: nonEmpty
    .optional()
    .describe('Auxiliary model for summaries ("provider/model" or a model name of the main provider).'),
});

export const approvalsSchema = z.strictObject({
  mode: z
    .enum(["manual", "smart", "off"])
    .default("manual")
    .describe("manual: ask; smart: an auxiliary model may approve low-risk matches; off: never ask."),
  allow: z
    .array(nonEmpty)
    .default([])
    .describe('Pattern keys approved for good (the "always" answer appends here).'),
  timeout_seconds: positiveInt.default(60),
  judge_model: nonEmpty
    .optional()
    .describe(
      'smart mode: the model that judges flagged commands ("provider/model" or a model of the main provider); default the main route.',
    ),
  non_interactive: z
    .enum(["deny", "allow"])
    .default("deny")
    .describe("What a dangerous command gets where nobody can be asked (cron, batch, -p without a TTY)."),
});

export const filesSchema = z.strictObject({
  outside_workdir: z
    .enum(["ask", "allow"])
    .default("ask")
    .describe(
      "Whether the file tools read outside the work folder without asking; writing outside always asks.",
    ),
});

export const agentSchema = z.strictObject({
  max_rounds: z.int().min(0).max(100_000).default(90).describe("Model calls per turn; 0 = unlimited."),
  time_budget_seconds: z.number().positive().optional().describe("Wall-clock limit of one turn."),
  session_budget_seconds: z
    .number()
    .positive()
    .default(7200)
    .describe(
      "Time the agent may work in a session (the sum of its turns; idle time is not counted), with one hand-off hook before it runs out.",
    ),
  cost_budget_usd: z.number().positive().optional().describe("Spend limit per session; one warning at 80 %."),
});

export const delegationSchema = z.strictObject({
  max_rounds: z.int().min(1).max(100_000).default(50).describe("Round budget of each child agent."),
  max_concurrent_children: z
    .int()
    .min(1)
    .max(64)
    .default(3)
    .describe("Children of one session running at once; a further delegate_task call is refused."),
  max_depth: z
    .int()
    .min(1)
    .max(4)
    .default(1)
    .describe("How deep subagents may nest: 1 = children cannot delegate, 2 = grandchildren, …"),
});

export const memorySchema = z.strictObject({
  enabled: z.boolean().default(true),
  memory_char_limit: positiveInt.default(2200),
  user_char_limit: positiveInt.default(1375),
});

export const displaySchema = z.strictObject({
  show_reasoning: z
    .boolean()
    .default(false)
    .describe("Show the model's reasoning in the chat, collapsed to one line (/reasoning shows all)."),
});

export const loggingSchema = z.strictObject({
  level: z
    .enum(["debug", "info", "warn", "error", "silent"])
    .default("warn")
    .describe("Diagnostics at this level and above go to logs/iris.log (IRIS_LOG_LEVEL overrides)."),
});

export const configSchema = z.strictObject({
  model: modelSchema.prefault({}),
  providers: z.record(nonEmpty, providerSchema).default({}),
  fallback_providers: z.array(fallbackSchema).default([]),
  compression: compressionSchema.prefault({}),
  approvals: approvalsSchema.prefault({}),
  files: filesSchema.prefault({}),
  toolsets: z
    .record(nonEmpty, z.array(nonEmpty))
    .default({})
    .describe(
      "Toolsets per platform (cli, gateway, acp, api, batch, …); a missing platform uses its built-in list.",
    ),
  display: displaySchema.prefault({}),
  logging: loggingSchema.prefault({}),
  agent: agentSchema.prefault({}),
  delegation: delegationSchema.prefault({}),
  memory: memorySchema.prefault({}),
  batch: batchSchema.prefault({}),
  serve: serveSchema.prefault({}),
  mcp_servers: mcpServersSchema,
  gateway: gatewaySchema.prefault({}),
  web: webSchema.prefault({}),
  browser: browserSchema.prefault({}),
  vision: visionSchema.prefault({}),
  dashboard: dashboardSchema.prefault({}),
  terminal: terminalSchema.prefault({}),
  code_execution: codeExecutionSchema.prefault({}),
  hooks: hooksSchema.prefault({}),
  queue: queueSchema.prefault({}),
});

/** config.yaml after defaults are applied. */
export type IrisConfig = z.output<typeof configSchema>;
/** What a user may write in config.yaml. */
export type IrisConfigInput = z.input<typeof configSchema>;

/**
 * Parse options for config, read once per process: zod's compiled fast path for an object costs
 * more to generate (a `new Function` per object schema) than one parse of it takes.
 */
export const PARSE_ONCE = { jitless: true } as const;

export function defaultConfig(): IrisConfig {
  return configSchema.parse({}, PARSE_ONCE);
}
