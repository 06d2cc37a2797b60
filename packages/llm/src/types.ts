// The canonical conversation. Everything outside the three wire adapters speaks these types.

export type ApiMode = "chat_completions" | "responses" | "anthropic_messages";
export const API_MODES: readonly ApiMode[] = ["chat_completions", "responses", "anthropic_messages"];

/** Who produced an assistant message: what send-time shaping needs (SPEC H4, P7). */
export interface Origin {
  provider: string;
  apiMode: ApiMode;
  model: string;
}

export interface TextPart {
  type: "text";
  text: string;
}

/** An image given by the user or a tool: base64 data or a URL. */
export interface ImagePart {
  type: "image";
  mediaType: string;
  data?: string;
  url?: string;
}

export type UserPart = TextPart | ImagePart;

/**
 * Reasoning as the provider sent it. `raw` is the provider's own item, kept untouched
 * (Anthropic thinking block with its signature, Responses reasoning item with
 * encrypted_content and id); `text` is what we can show.
 */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  raw?: Record<string, unknown>;
  /** The endpoint that issued `raw` (wire/issuer.ts); signed items verify only there. */
  issuer?: string;
}

/**
 * A tool call. `callId` is ours and canonical: the id that pairs call and result in history.
 * What the provider called it (Chat `id`, Responses `call_id` + item `id`, Anthropic `tool_use.id`)
 * is kept apart in `providerIds` (SPEC U1).
 */
export interface ToolCallPart {
  type: "toolCall";
  callId: string;
  name: string;
  argumentsJson: string;
  providerIds?: { callId?: string; itemId?: string };
}

export type AssistantPart = TextPart | ReasoningPart | ToolCallPart;

export type StopReason =
  | "end" // natural end of the answer
  | "tool_calls"
  | "max_tokens"
  | "refusal" // HTTP 200 with a refusal stop (Anthropic stop_reason "refusal", OpenAI refusal)
  | "content_filter"
  | "pause" // Anthropic pause_turn
  | "unknown";

/**
 * Token usage of one API call. `inputTokens` is the whole prompt, cached parts included,
 * whatever the provider's own convention (Anthropic reports them apart; we add them up).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});

export interface UserMessage {
  role: "user";
  content: string | UserPart[];
  /** Speaker name, to keep people apart in shared channels (SPEC H2). */
  name?: string;
}

export interface AssistantMessage {
  role: "assistant";
  parts: AssistantPart[];
  origin: Origin;
  usage: Usage;
  stopReason: StopReason;
  /** The provider's response id, when it gives one. */
  responseId?: string;
  /** A refusal explanation, when the provider sent one apart from the text. */
  refusal?: string;
}

export interface ToolResultMessage {
  role: "tool";
  callId: string;
  toolName: string;
  content: string | UserPart[];
  isError: boolean;
  /** Set when the call was never run; says why (SPEC H3). */
  notExecuted?: string;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it. `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

/** One request to a model, independent of the wire format. */
export interface LlmRequest {
  model: string;
  system?: string;
  messages: Message[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxOutputTokens?: number;
  temperature?: number;
  reasoning?: { effort?: "minimal" | "low" | "medium" | "high"; budgetTokens?: number };
  /** Prompt caching on routes that support it (SPEC P6). */
  cache?: boolean;
  /** Stream (SSE) or a single JSON reply. Default true. */
  stream?: boolean;
}

export function textOf(content: string | UserPart[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((p): p is TextPart => p.type === "text")
    .map((p) => p.text)
    .join("");
}

export function assistantText(m: AssistantMessage): string {
  return m.parts
    .filter((p): p is TextPart => p.type === "text")
    .map((p) => p.text)
    .join("");
}

export function toolCallsOf(m: AssistantMessage): ToolCallPart[] {
  return m.parts.filter((p): p is ToolCallPart => p.type === "toolCall");
}
