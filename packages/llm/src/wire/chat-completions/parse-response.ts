// A non-streaming Chat Completions reply → AssistantMessage (or an invalid_response error).
import { type LlmError, llmError } from "../../errors.js";
import type { AssistantMessage, AssistantPart, Origin, StopReason } from "../../types.js";
import { classifyPayloadError } from "../classify.js";
import { mapFinishReason } from "./finish-reason.js";
import { attachDetails, ReasoningDetails } from "./reasoning-details.js";
import { responseSchema } from "./schema.js";
import { mapUsage } from "./usage.js";

export function parseChatResponse(body: unknown, origin: Origin): AssistantMessage | LlmError {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    return llmError("invalid_response", `unexpected reply shape: ${parsed.error.issues[0]?.message}`);
  }
  const reply = parsed.data;
  if (reply.error !== undefined && reply.error !== null) return classifyPayloadError(body);
  const choice = reply.choices?.find((c) => (c.index ?? 0) === 0);
  if (!choice) return llmError("invalid_response", "the reply had no choices");
  const m = choice.message;
  let parts: AssistantPart[] = [];
  const reasoning = m.reasoning_content ?? m.reasoning;
  if (reasoning) parts.push({ type: "reasoning", text: reasoning });
  if (m.content) parts.push({ type: "text", text: m.content });
  for (const [i, tc] of (m.tool_calls ?? []).entries()) {
    const id = tc.id || `call_iris_${i}_${reply.id ?? "reply"}`;
    parts.push({
      type: "toolCall",
      callId: id,
      name: tc.function.name,
      argumentsJson: tc.function.arguments ?? "",
      ...(tc.id ? { providerIds: { callId: tc.id } } : {}),
    });
  }
  if (m.reasoning_details) {
    const details = new ReasoningDetails();
    details.add(m.reasoning_details);
    parts = attachDetails(parts, details.list());
  }
  let stopReason: StopReason = mapFinishReason(choice.finish_reason);
  if (m.refusal) stopReason = "refusal";
  else if (stopReason === "end" && parts.some((p) => p.type === "toolCall")) stopReason = "tool_calls";
  const message: AssistantMessage = {
    role: "assistant",
    parts,
    origin,
    usage: mapUsage(reply.usage),
    stopReason,
  };
  if (reply.id) message.responseId = reply.id;
  if (m.refusal) message.refusal = m.refusal;
  return message;
}
