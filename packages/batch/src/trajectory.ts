// One output row of `iris batch` (issue 18): the item's conversation in the ShareGPT layout that
// fine-tuning tools read (`conversations: [{from, value}]`, from ∈ system|human|gpt|tool) or, with
// `--format openai`, OpenAI's fine-tuning `messages`; the tool schemas offered, the item's system
// text, its tool calls, per-tool stats, usage and cost. Tool calls and results use the Hermes layout:
// an assistant turn is `<think>…</think>` (when it reasoned), its text, then one
// `<tool_call>{"name","arguments"}</tool_call>` per call; the results of one turn are one `tool`
// entry of `<tool_response>{"tool_call_id","name","content"}</tool_response>` blocks.
import { jsonTooDeep, type Message, type UserPart } from "@iris/llm";
import { z } from "zod";
import { openAiMessageSchema, openAiToolSchema, reasoningEntrySchema } from "./openai-format.js";

export const ROW_STATUSES = ["completed", "failed", "discarded", "budget_exceeded"] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

const usageSchema = z.strictObject({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  cache_read_tokens: z.number().int().min(0),
  cache_write_tokens: z.number().int().min(0),
  reasoning_tokens: z.number().int().min(0),
});

const toolCallSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  arguments: z.unknown(),
  is_error: z.boolean(),
});

/** The schema of one output line; the round-trip test and `--resume` read rows through it. */
export const trajectoryRowSchema = z.strictObject({
  id: z.string().nullable(),
  key: z.string().min(1),
  status: z.enum(ROW_STATUSES),
  termination_reason: z.string().min(1),
  /** `--format sharegpt` (the default): the conversation as ShareGPT turns. */
  conversations: z
    .array(z.strictObject({ from: z.enum(["system", "human", "gpt", "tool"]), value: z.string() }))
    .optional(),
  /** `--format openai`: the conversation as OpenAI fine-tuning messages (openai-format.ts). */
  messages: z.array(openAiMessageSchema).optional(),
  /** The function schemas the model was offered (absent in rows of older runs). */
  tools: z.array(openAiToolSchema).optional(),
  /** The item's own `system` text (also in the system turn, after Iris's prompt, as it was sent). */
  system: z.string().optional(),
  /** `--format openai`: the reasoning the route returned, by index of its assistant message. */
  reasoning: z.array(reasoningEntrySchema).optional(),
  tool_calls: z.array(toolCallSchema),
  tool_stats: z.record(
    z.string(),
    z.strictObject({ count: z.number().int(), success: z.number().int(), failure: z.number().int() }),
  ),
  usage: usageSchema,
  cost_usd: z.number().min(0),
  api_calls: z.number().int().min(0),
  rounds: z.number().int().min(0),
  duration_ms: z.number().int().min(0),
  model: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  /** Why the item failed (failed rows only; the same text is in the failure file). */
  error: z.string().optional(),
});

export type TrajectoryRow = z.output<typeof trajectoryRowSchema>;
export type RowUsage = z.output<typeof usageSchema>;
export type ShareGptTurn = NonNullable<TrajectoryRow["conversations"]>[number];
export type TrajectoryFormat = "sharegpt" | "openai";
export const TRAJECTORY_FORMATS: readonly TrajectoryFormat[] = ["sharegpt", "openai"];

export const ZERO_ROW_USAGE: RowUsage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
});

function partsText(content: string | UserPart[]): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : `[image ${p.mediaType}]`)).join("\n");
}

/** Arguments as an object when they are JSON (never double-encoded), else the raw text. */
function parsedArguments(json: string): unknown {
  if (jsonTooDeep(json)) return json; // too deep to write back out as data
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** A tool result as data when it is JSON, else its text. */
function parsedContent(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith("{") || t.startsWith("[")) || jsonTooDeep(t)) return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

export interface Conversion {
  conversations: ShareGptTurn[];
  toolCalls: TrajectoryRow["tool_calls"];
  toolStats: TrajectoryRow["tool_stats"];
}

/** The canonical history of one item (system prompt apart) in the ShareGPT layout. */
export function toShareGpt(systemPrompt: string, history: readonly Message[]): Conversion {
  const conversations: ShareGptTurn[] = [];
  if (systemPrompt) conversations.push({ from: "system", value: systemPrompt });
  const toolCalls: TrajectoryRow["tool_calls"] = [];
  const toolStats: TrajectoryRow["tool_stats"] = {};
  const byCallId = new Map<string, TrajectoryRow["tool_calls"][number]>();
  let pendingResults: string[] = [];
  const flushResults = () => {
    if (pendingResults.length) conversations.push({ from: "tool", value: pendingResults.join("\n") });
    pendingResults = [];
  };
  for (const m of history) {
    if (m.role === "tool") {
      const block = JSON.stringify({
        tool_call_id: m.callId,
        name: m.toolName,
        content: parsedContent(partsText(m.content)),
      });
      pendingResults.push(`<tool_response>\n${block}\n</tool_response>`);
      const stats = toolStats[m.toolName] ?? { count: 0, success: 0, failure: 0 };
      toolStats[m.toolName] = stats;
      stats.count += 1;
      if (m.isError) stats.failure += 1;
      else stats.success += 1;
      const call = byCallId.get(m.callId);
      if (call) call.is_error = m.isError;
      continue;
    }
    flushResults();
    if (m.role === "user") {
      conversations.push({ from: "human", value: partsText(m.content) });
      continue;
    }
    const pieces: string[] = [];
    const reasoning = m.parts
      .filter((p) => p.type === "reasoning")
      .map((p) => p.text)
      .join("\n");
    if (reasoning.trim()) pieces.push(`<think>\n${reasoning}\n</think>`);
    const text = m.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("");
    if (text) pieces.push(text);
    for (const p of m.parts) {
      if (p.type !== "toolCall") continue;
      const args = parsedArguments(p.argumentsJson);
      pieces.push(`<tool_call>\n${JSON.stringify({ name: p.name, arguments: args })}\n</tool_call>`);
      const call = { id: p.callId, name: p.name, arguments: args, is_error: false };
      toolCalls.push(call);
      byCallId.set(p.callId, call);
    }
    conversations.push({ from: "gpt", value: pieces.join("\n") });
  }
  flushResults();
  return { conversations, toolCalls, toolStats };
}
