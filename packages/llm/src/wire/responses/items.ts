// Responses output items → canonical assistant parts. Shared by the stream reducer (at
// output_item.done) and the non-streaming parser so both read an item the same way.
import type { ReasoningPart, ToolCallPart } from "../../types.js";
import { functionCallItemSchema, reasoningItemSchema } from "./schemas.js";

/** The shown text of a reasoning item: its summaries, one paragraph each. */
export function reasoningFromItem(item: Record<string, unknown>): ReasoningPart | undefined {
  const parsed = reasoningItemSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const text = parsed.data.summary.map((s) => s.text).join("\n\n");
  // raw is the item exactly as received (id, encrypted_content, …); the request builder
  // decides which of its fields go back.
  return { type: "reasoning", text, raw: { ...item } };
}

export function toolCallFromItem(
  item: Record<string, unknown>,
  argumentsJson?: string,
): ToolCallPart | undefined {
  const parsed = functionCallItemSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const { call_id, id, name } = parsed.data;
  return {
    type: "toolCall",
    callId: call_id,
    name,
    argumentsJson: argumentsJson ?? parsed.data.arguments,
    providerIds: id ? { callId: call_id, itemId: id } : { callId: call_id },
  };
}
