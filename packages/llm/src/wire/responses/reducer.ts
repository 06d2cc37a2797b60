// Responses SSE events → normalised stream events. Pure: no I/O, no clock. Text is kept as
// arrays of chunks and joined once per part, so long streams reduce in linear time.
import { z } from "zod";
import { type LlmError, llmError } from "../../errors.js";
import type { StreamEvent } from "../../events.js";
import type { AssistantPart, Origin } from "../../types.js";
import type { SseEvent, StreamReducer } from "../adapter.js";
import { parseSseJson } from "../sse-json.js";
import { mapStopReason, mapUsage, providerError } from "./finish.js";
import { reasoningFromItem, toolCallFromItem } from "./items.js";
import { messageItemSchema, outputItemSchema, providerErrorSchema, responseSchema } from "./schemas.js";

const eventSchema = z.looseObject({
  type: z.string(),
  output_index: z.number().optional(),
  content_index: z.number().optional(),
  summary_index: z.number().optional(),
  delta: z.string().optional(),
  text: z.string().optional(),
  refusal: z.string().optional(),
  item: outputItemSchema.optional(),
  part: z.looseObject({ type: z.string() }).optional(),
  response: responseSchema.optional(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});
type ResponsesEvent = z.infer<typeof eventSchema>;

type Slot =
  | { kind: "text"; index: number; chunks: string[] }
  | { kind: "reasoning"; index: number; chunks: string[]; summaryIndex: number }
  | { kind: "toolCall"; index: number; chunks: string[]; item: Record<string, unknown> };

export function createResponsesReducer(origin: Origin): StreamReducer {
  const parts: (AssistantPart | undefined)[] = [];
  const open = new Map<string, Slot>(); // "o:3" for items, "o:3:c:0" for text parts
  const refusalChunks: string[] = [];
  let refusal: string | undefined;
  let responseId: string | undefined;
  let started = false;
  let finished = false;
  const seenText = new Set<string>(); // text parts already streamed, so message.done does not repeat them

  const textKey = (e: ResponsesEvent) => `o:${e.output_index ?? 0}:c:${e.content_index ?? 0}`;
  const itemKey = (e: ResponsesEvent) => `o:${e.output_index ?? 0}`;

  function openText(key: string, out: StreamEvent[]): Slot {
    const slot: Slot = { kind: "text", index: parts.length, chunks: [] };
    parts.push(undefined);
    open.set(key, slot);
    out.push({ type: "text_start", index: slot.index });
    return slot;
  }

  function openReasoning(key: string, out: StreamEvent[]): Slot {
    const slot: Slot = { kind: "reasoning", index: parts.length, chunks: [], summaryIndex: 0 };
    parts.push(undefined);
    open.set(key, slot);
    out.push({ type: "reasoning_start", index: slot.index });
    return slot;
  }

  /** Closes a slot; `item` is the finished output item when the provider sent one. */
  function close(key: string, slot: Slot, out: StreamEvent[], item?: Record<string, unknown>): void {
    open.delete(key);
    if (slot.kind === "text") {
      const text = slot.chunks.join("");
      parts[slot.index] = { type: "text", text };
      out.push({ type: "text_end", index: slot.index, text });
    } else if (slot.kind === "reasoning") {
      const streamed = slot.chunks.join("");
      const fromItem = item ? reasoningFromItem(item) : undefined;
      const part = fromItem
        ? { ...fromItem, text: fromItem.text || streamed }
        : { type: "reasoning" as const, text: streamed };
      parts[slot.index] = part;
      out.push({ type: "reasoning_end", index: slot.index, text: part.text });
    } else {
      const joined = slot.chunks.join("");
      const finalItem = item ?? slot.item;
      const args = typeof finalItem["arguments"] === "string" && finalItem["arguments"] ? undefined : joined;
      const call = toolCallFromItem(finalItem, args);
      if (!call) return;
      parts[slot.index] = call;
      out.push({ type: "toolcall_end", index: slot.index, call });
    }
  }

  function onItemAdded(e: ResponsesEvent, out: StreamEvent[]): void {
    const item = e.item;
    if (!item) return;
    if (item.type === "reasoning") openReasoning(itemKey(e), out);
    if (item.type === "function_call") {
      const call = toolCallFromItem(item);
      if (!call) return;
      const slot: Slot = { kind: "toolCall", index: parts.length, chunks: [], item };
      parts.push(undefined);
      open.set(itemKey(e), slot);
      out.push({ type: "toolcall_start", index: slot.index, callId: call.callId, name: call.name });
    }
  }

  function onItemDone(e: ResponsesEvent, out: StreamEvent[]): void {
    const item = e.item;
    if (!item) return;
    const key = itemKey(e);
    if (item.type === "reasoning") {
      close(key, open.get(key) ?? openReasoning(key, out), out, item);
    } else if (item.type === "function_call") {
      const slot = open.get(key);
      if (slot) close(key, slot, out, item);
      else {
        const call = toolCallFromItem(item);
        if (!call) return;
        const index = parts.push(call) - 1;
        out.push({ type: "toolcall_start", index, callId: call.callId, name: call.name });
        out.push({ type: "toolcall_end", index, call });
      }
    } else if (item.type === "message") {
      onMessageDone(e, item, out);
    }
  }

  /** Closes text parts still open, and takes text or refusals that came without deltas. */
  function onMessageDone(e: ResponsesEvent, item: Record<string, unknown>, out: StreamEvent[]): void {
    const msg = messageItemSchema.safeParse(item);
    if (!msg.success) return;
    msg.data.content.forEach((c, ci) => {
      const key = `${itemKey(e)}:c:${ci}`;
      if (c.type === "refusal" && refusal === undefined) refusal = c.refusal ?? refusalChunks.join("");
      if (c.type !== "output_text") return;
      const slot = open.get(key);
      if (slot) close(key, slot, out);
      else if (!seenText.has(key)) {
        const fresh = openText(key, out);
        fresh.chunks.push(c.text ?? "");
        close(key, fresh, out);
      }
    });
  }
  function finish(e: ResponsesEvent, out: StreamEvent[]): void {
    const res = e.response;
    for (const [key, slot] of [...open]) close(key, slot, out);
    finished = true;
    if (refusal === undefined && refusalChunks.length > 0) refusal = refusalChunks.join("");
    const done = parts.filter((p): p is AssistantPart => p !== undefined);
    const hasToolCalls = done.some((p) => p.type === "toolCall");
    const stopReason = mapStopReason({
      status: res?.status ?? (e.type === "response.incomplete" ? "incomplete" : "completed"),
      incompleteReason: res?.incomplete_details?.reason,
      hasToolCalls,
      hasRefusal: refusal !== undefined,
    });
    const usable =
      hasToolCalls ||
      refusal !== undefined ||
      stopReason === "max_tokens" ||
      stopReason === "content_filter" ||
      done.some((p) => p.type === "text" && p.text.length > 0);
    if (!usable) {
      out.push({
        type: "error",
        error: llmError("invalid_response", "responses: reply had no text, tool call or refusal"),
      });
      return;
    }
    out.push({
      type: "done",
      message: {
        role: "assistant",
        parts: done,
        origin,
        usage: mapUsage(res?.usage),
        stopReason,
        ...((res?.id ?? responseId) ? { responseId: res?.id ?? responseId } : {}),
        ...(refusal !== undefined ? { refusal } : {}),
      },
    });
  }

  function fail(error: LlmError, out: StreamEvent[]): void {
    finished = true;
    out.push({ type: "error", error });
  }

  function handle(e: ResponsesEvent, out: StreamEvent[]): void {
    switch (e.type) {
      case "response.created":
      case "response.in_progress":
        responseId = e.response?.id ?? responseId;
        return;
      case "response.output_item.added":
        onItemAdded(e, out);
        return;
      case "response.output_item.done":
        onItemDone(e, out);
        return;
      case "response.content_part.added":
        if (e.part?.type === "output_text" && !open.has(textKey(e))) {
          seenText.add(textKey(e));
          openText(textKey(e), out);
        }
        return;
      case "response.output_text.delta": {
        const key = textKey(e);
        seenText.add(key);
        const slot = open.get(key) ?? openText(key, out);
        slot.chunks.push(e.delta ?? "");
        out.push({ type: "text_delta", index: slot.index, delta: e.delta ?? "" });
        return;
      }
      case "response.output_text.done": {
        const slot = open.get(textKey(e));
        if (slot) close(textKey(e), slot, out);
        return;
      }
      case "response.refusal.delta":
        refusalChunks.push(e.delta ?? "");
        return;
      case "response.refusal.done":
        refusal = e.refusal ?? refusalChunks.join("");
        return;
      case "response.reasoning_summary_text.delta": {
        const slot = open.get(itemKey(e)) ?? openReasoning(itemKey(e), out);
        if (slot.kind !== "reasoning") return;
        const si = e.summary_index ?? 0;
        const delta = (si !== slot.summaryIndex && slot.chunks.length > 0 ? "\n\n" : "") + (e.delta ?? "");
        slot.summaryIndex = si;
        slot.chunks.push(delta);
        out.push({ type: "reasoning_delta", index: slot.index, delta });
        return;
      }
      case "response.function_call_arguments.delta": {
        const slot = open.get(itemKey(e));
        if (slot?.kind !== "toolCall") return;
        slot.chunks.push(e.delta ?? "");
        out.push({ type: "toolcall_delta", index: slot.index, delta: e.delta ?? "" });
        return;
      }
      case "response.completed":
      case "response.incomplete":
        finish(e, out);
        return;
      case "response.failed":
        fail(providerError(e.response?.error, "response failed"), out);
        return;
      case "error": {
        const nested = providerErrorSchema.safeParse(e["error"]);
        fail(providerError(nested.success ? nested.data : providerErrorSchema.parse(e), "error event"), out);
        return;
      }
      default:
        return; // other events (annotations, *.done duplicates, web search progress) carry nothing we keep
    }
  }

  return {
    push(sse: SseEvent): StreamEvent[] {
      if (finished) return [];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: "start" });
      }
      const parsed = parseSseJson(sse, eventSchema, "responses", ["[DONE]"]);
      if (parsed.kind === "error") fail(parsed.error, out);
      else if (parsed.kind === "event") handle(parsed.value, out);
      return out;
    },
    end(): StreamEvent[] {
      if (finished) return [];
      finished = true;
      return [
        { type: "error", error: llmError("network", "responses: stream ended before response.completed") },
      ];
    },
  };
}
