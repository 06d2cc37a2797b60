// Small builders for shaping tests (test-only: this folder is outside the package's API).
import type {
  ApiMode,
  AssistantMessage,
  AssistantPart,
  Message,
  Origin,
  ReasoningPart,
  ToolCallPart,
  ToolResultMessage,
} from "../../types.js";
import { ZERO_USAGE } from "../../types.js";

export const ORIGINS = {
  openaiResponses: { provider: "openai", apiMode: "responses", model: "gpt-5" },
  openaiChat: { provider: "openai", apiMode: "chat_completions", model: "gpt-4.1" },
  anthropic: { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-sonnet-4-5" },
  deepseek: { provider: "deepseek", apiMode: "chat_completions", model: "deepseek-reasoner" },
  vllm: { provider: "vllm", apiMode: "responses", model: "qwen3" },
} satisfies Record<string, Origin>;

export function asst(origin: Origin, ...parts: AssistantPart[]): AssistantMessage {
  return {
    role: "assistant",
    parts,
    origin,
    usage: ZERO_USAGE,
    stopReason: parts.some((p) => p.type === "toolCall") ? "tool_calls" : "end",
  };
}

export function text(t: string): AssistantPart {
  return { type: "text", text: t };
}

export function call(callId: string, providerIds?: ToolCallPart["providerIds"], name = "read"): ToolCallPart {
  return {
    type: "toolCall",
    callId,
    name,
    argumentsJson: '{"path":"a"}',
    ...(providerIds ? { providerIds } : {}),
  };
}

export function result(callId: string, content = "ok", toolName = "read"): ToolResultMessage {
  return { role: "tool", callId, toolName, content, isError: false };
}

export function user(content: string, name?: string): Message {
  return name ? { role: "user", content, name } : { role: "user", content };
}

/** Reasoning as each provider kind stores it. */
export function reasoningOf(kind: ApiMode | "plain", n = 0): ReasoningPart {
  switch (kind) {
    case "responses":
      return {
        type: "reasoning",
        text: `thought ${n}`,
        raw: {
          type: "reasoning",
          id: `rs_${n}`,
          status: "completed",
          summary: [{ type: "summary_text", text: `thought ${n}` }],
          encrypted_content: `enc${n}`,
        },
      };
    case "anthropic_messages":
      return {
        type: "reasoning",
        text: `thought ${n}`,
        raw: { type: "thinking", thinking: `thought ${n}`, signature: `sig${n}` },
      };
    default:
      return { type: "reasoning", text: `thought ${n}` }; // Chat reasoning_content: no raw item
  }
}
