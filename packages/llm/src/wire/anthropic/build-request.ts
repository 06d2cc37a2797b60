// LlmRequest → POST {baseUrl}/messages. The transport attaches the key; it is never in the body.
import type { Runtime } from "../../runtime.js";
import type { LlmRequest } from "../../types.js";
import type { BuiltRequest } from "../adapter.js";
import { historyLast } from "../body.js";
import { applyCacheBreakpoints } from "./cache.js";
import { type Block, convertMessages, type Turn } from "./convert-messages.js";
import { prepareToolChoice, prepareTools } from "./prepare-tools.js";

export const ANTHROPIC_VERSION = "2023-06-01";
export const DEFAULT_MAX_TOKENS = 8192;

function thinkingFits(messages: readonly Turn[]): boolean {
  const last = messages[messages.length - 1];
  const prev = messages[messages.length - 2];
  if (!last || prev?.role !== "assistant" || !last.content.some((b) => b["type"] === "tool_result"))
    return true;
  const first = prev.content[0]?.["type"];
  return first === "thinking" || first === "redacted_thinking";
}

export function buildAnthropicRequest(runtime: Runtime, request: LlmRequest): BuiltRequest {
  const system: Block[] = request.system ? [{ type: "text", text: request.system }] : [];
  const toolsAllowed = runtime.compat.tools !== false;
  const tools = toolsAllowed ? prepareTools(request.tools) : [];
  let messages = convertMessages(request.messages);
  let cachedSystem = system;
  let cachedTools = tools;
  if (request.cache && runtime.compat.promptCache !== false) {
    ({
      system: cachedSystem,
      tools: cachedTools,
      messages,
    } = applyCacheBreakpoints({ system, tools, messages }));
  }
  // A tool loop begun without thinking (another route's turn, or thinking just switched on) cannot
  // go on with it: the API wants the answered assistant turn to open with a thinking block.
  const budget = thinkingFits(messages) ? request.reasoning?.budgetTokens : undefined;
  let maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS; // API demands max_tokens > budget
  const toolChoice = tools.length > 0 ? prepareToolChoice(request.toolChoice) : undefined;
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: maxTokens,
    ...(cachedSystem.length > 0 ? { system: cachedSystem } : {}),
    messages,
    ...(cachedTools.length > 0 ? { tools: cachedTools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    // Extended thinking rejects a temperature other than the default.
    ...(request.temperature !== undefined && budget === undefined
      ? { temperature: request.temperature }
      : {}),
    ...(budget !== undefined ? { thinking: { type: "enabled", budget_tokens: budget } } : {}),
    stream: request.stream !== false,
  };
  return {
    path: "/messages",
    body: historyLast(body, "messages"),
    headers: { "anthropic-version": ANTHROPIC_VERSION },
  };
}
