// Anthropic SSE events → normalised stream events. Pure: no I/O, no clock. Deltas are kept as
// arrays of chunks and joined once per block, so long streams reduce in linear time.
import { type LlmError, llmError } from "../../errors.js";
import type { StreamEvent } from "../../events.js";
import type { AssistantPart, Origin } from "../../types.js";
import type { SseEvent, StreamReducer } from "../adapter.js";
import { parseSseJson } from "../sse-json.js";
import { partFromBlock } from "./blocks.js";
import { addUsage, mapStopReason, mapUsage, providerError, type UsageTally } from "./finish.js";
import { type ContentBlock, type StreamEventData, streamEventSchema } from "./schemas.js";

interface OpenBlock {
  index: number; // position in the message's parts
  block: ContentBlock; // as content_block_start gave it
  chunks: string[]; // text, thinking or partial_json
  signature: string[];
}

export function createAnthropicReducer(origin: Origin): StreamReducer {
  const parts: (AssistantPart | undefined)[] = [];
  const open = new Map<number, OpenBlock>(); // keyed by Anthropic's block index
  const tally: UsageTally = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  let stopReason: string | null | undefined;
  let responseId: string | undefined;
  let started = false;
  let finished = false;

  function onBlockStart(e: StreamEventData, out: StreamEvent[]): void {
    const block = e.content_block;
    if (!block || e.index === undefined) return;
    const ob: OpenBlock = { index: parts.length, block, chunks: [], signature: [] };
    if (block.type === "text") out.push({ type: "text_start", index: ob.index });
    else if (block.type === "thinking" || block.type === "redacted_thinking")
      out.push({ type: "reasoning_start", index: ob.index });
    else if (block.type === "tool_use")
      out.push({ type: "toolcall_start", index: ob.index, callId: block.id ?? "", name: block.name ?? "" });
    else return; // a block type we do not keep: ignore its deltas too
    if (block.text) ob.chunks.push(block.text);
    if (block.thinking) ob.chunks.push(block.thinking);
    if (block.signature) ob.signature.push(block.signature);
    parts.push(undefined);
    open.set(e.index, ob);
  }

  function onBlockDelta(e: StreamEventData, out: StreamEvent[]): void {
    const ob = e.index === undefined ? undefined : open.get(e.index);
    const d = e.delta;
    if (!ob || !d) return;
    if (d.type === "text_delta" && d.text !== undefined) {
      ob.chunks.push(d.text);
      out.push({ type: "text_delta", index: ob.index, delta: d.text });
    } else if (d.type === "thinking_delta" && d.thinking !== undefined) {
      ob.chunks.push(d.thinking);
      out.push({ type: "reasoning_delta", index: ob.index, delta: d.thinking });
    } else if (d.type === "signature_delta" && d.signature !== undefined) {
      ob.signature.push(d.signature);
    } else if (d.type === "input_json_delta" && d.partial_json !== undefined) {
      ob.chunks.push(d.partial_json);
      out.push({ type: "toolcall_delta", index: ob.index, delta: d.partial_json });
    }
  }

  function closeBlock(key: number, ob: OpenBlock, out: StreamEvent[]): void {
    open.delete(key);
    const joined = ob.chunks.join("");
    const b = ob.block;
    let args: string | undefined;
    if (b.type === "tool_use") {
      const startInput = b.input && typeof b.input === "object" ? JSON.stringify(b.input) : "{}";
      args = joined.trim() === "" ? startInput : joined;
    }
    const block: ContentBlock =
      b.type === "text"
        ? { ...b, text: joined }
        : b.type === "thinking"
          ? { ...b, thinking: joined, signature: ob.signature.join("") }
          : b;
    const part = partFromBlock(block, args);
    if (!part) return;
    parts[ob.index] = part;
    if (part.type === "text") out.push({ type: "text_end", index: ob.index, text: part.text });
    else if (part.type === "reasoning") out.push({ type: "reasoning_end", index: ob.index, text: part.text });
    else out.push({ type: "toolcall_end", index: ob.index, call: part });
  }

  function finish(out: StreamEvent[]): void {
    for (const [key, ob] of [...open]) closeBlock(key, ob, out);
    finished = true;
    const done = parts.filter((p): p is AssistantPart => p !== undefined);
    const reason = mapStopReason(stopReason);
    const usable =
      done.some((p) => p.type === "toolCall" || (p.type === "text" && p.text.length > 0)) ||
      reason === "refusal" ||
      reason === "max_tokens" ||
      reason === "pause";
    if (!usable) {
      out.push({
        type: "error",
        error: llmError("invalid_response", "anthropic: reply had no text or tool call"),
      });
      return;
    }
    out.push({
      type: "done",
      message: {
        role: "assistant",
        parts: done,
        origin,
        usage: mapUsage(tally),
        stopReason: reason,
        ...(responseId ? { responseId } : {}),
      },
    });
  }

  function fail(error: LlmError, out: StreamEvent[]): void {
    finished = true;
    out.push({ type: "error", error });
  }

  function handle(e: StreamEventData, out: StreamEvent[]): void {
    switch (e.type) {
      case "message_start":
        responseId = e.message?.id;
        addUsage(tally, e.message?.usage);
        return;
      case "content_block_start":
        onBlockStart(e, out);
        return;
      case "content_block_delta":
        onBlockDelta(e, out);
        return;
      case "content_block_stop": {
        const ob = e.index === undefined ? undefined : open.get(e.index);
        if (ob && e.index !== undefined) closeBlock(e.index, ob, out);
        return;
      }
      case "message_delta":
        if (e.delta?.stop_reason) stopReason = e.delta.stop_reason;
        addUsage(tally, e.usage);
        return;
      case "message_stop":
        finish(out);
        return;
      case "error":
        fail(providerError(e.error, "error event"), out);
        return;
      default:
        return; // ping and future event types
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
      const parsed = parseSseJson(sse, streamEventSchema, "anthropic");
      if (parsed.kind === "error") fail(parsed.error, out);
      else if (parsed.kind === "event") handle(parsed.value, out);
      return out;
    },
    end(): StreamEvent[] {
      if (finished) return [];
      finished = true;
      return [{ type: "error", error: llmError("network", "anthropic: stream ended before message_stop") }];
    },
  };
}
