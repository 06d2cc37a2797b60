// A non-streaming Anthropic reply (JSON) → one assistant message.
import { type LlmError, llmError } from "../../errors.js";
import type { AssistantMessage, AssistantPart, Origin } from "../../types.js";
import { partFromBlock } from "./blocks.js";
import { addUsage, mapStopReason, mapUsage, providerError, type UsageTally } from "./finish.js";
import { messageReplySchema, providerErrorSchema } from "./schemas.js";

export function parseAnthropicReply(body: unknown, origin: Origin): AssistantMessage | LlmError {
  if (typeof body === "object" && body !== null && (body as { type?: unknown }).type === "error") {
    const err = providerErrorSchema.safeParse((body as { error?: unknown }).error);
    return providerError(err.success ? err.data : undefined, "error reply");
  }
  const parsed = messageReplySchema.safeParse(body);
  if (!parsed.success) return llmError("invalid_response", "anthropic: reply is not a message object");
  const reply = parsed.data;
  const parts = reply.content.map((b) => partFromBlock(b)).filter((p): p is AssistantPart => p !== undefined);
  const stopReason = mapStopReason(reply.stop_reason);
  const usable =
    parts.some((p) => p.type === "toolCall" || (p.type === "text" && p.text.length > 0)) ||
    stopReason === "refusal" ||
    stopReason === "max_tokens" ||
    stopReason === "pause";
  if (!usable) return llmError("invalid_response", "anthropic: reply had no text or tool call");
  const tally: UsageTally = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  addUsage(tally, reply.usage);
  return {
    role: "assistant",
    parts,
    origin,
    usage: mapUsage(tally),
    stopReason,
    ...(reply.id ? { responseId: reply.id } : {}),
  };
}
