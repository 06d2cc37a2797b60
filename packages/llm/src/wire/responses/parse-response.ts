// A non-streaming Responses reply (JSON) → one assistant message, read with the same item
// mapping as the stream reducer.
import { type LlmError, llmError } from "../../errors.js";
import type { AssistantMessage, AssistantPart, Origin } from "../../types.js";
import { mapStopReason, mapUsage, providerError } from "./finish.js";
import { reasoningFromItem, toolCallFromItem } from "./items.js";
import { messageItemSchema, responseSchema } from "./schemas.js";

export function parseResponsesReply(body: unknown, origin: Origin): AssistantMessage | LlmError {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) return llmError("invalid_response", "responses: reply is not a response object");
  const res = parsed.data;
  if (res.status === "failed" || res.error) return providerError(res.error, "response failed");
  const parts: AssistantPart[] = [];
  let refusal: string | undefined;
  for (const item of res.output) {
    if (item.type === "reasoning") {
      const part = reasoningFromItem(item);
      if (part) parts.push(part);
    } else if (item.type === "function_call") {
      const call = toolCallFromItem(item);
      if (call) parts.push(call);
    } else if (item.type === "message") {
      const msg = messageItemSchema.safeParse(item);
      for (const c of msg.success ? msg.data.content : []) {
        if (c.type === "output_text") parts.push({ type: "text", text: c.text ?? "" });
        if (c.type === "refusal") refusal = (refusal ?? "") + (c.refusal ?? "");
      }
    }
  }
  const hasToolCalls = parts.some((p) => p.type === "toolCall");
  const stopReason = mapStopReason({
    status: res.status,
    incompleteReason: res.incomplete_details?.reason,
    hasToolCalls,
    hasRefusal: refusal !== undefined,
  });
  const usable =
    hasToolCalls ||
    refusal !== undefined ||
    stopReason === "max_tokens" ||
    stopReason === "content_filter" ||
    parts.some((p) => p.type === "text" && p.text.length > 0);
  if (!usable) return llmError("invalid_response", "responses: reply had no text, tool call or refusal");
  return {
    role: "assistant",
    parts,
    origin,
    usage: mapUsage(res.usage),
    stopReason,
    ...(res.id ? { responseId: res.id } : {}),
    ...(refusal !== undefined ? { refusal } : {}),
  };
}
