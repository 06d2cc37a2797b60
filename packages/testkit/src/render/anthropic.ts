/** Anthropic Messages: the `message` JSON and its named SSE events (message_start … message_stop). */
import { chunk, type RenderContext, type ResolvedReply, type ResolvedUsage } from "../reply.js";
import { type SseEvent, sseEvent } from "../sse.js";

const STOP: Record<ResolvedReply["stopReason"], string> = {
  end: "end_turn",
  tool_calls: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
};

type Block = Record<string, unknown>;

/** Anthropic reports fresh input apart from cache reads and writes. */
function inputUsage(u: ResolvedUsage): Record<string, number> {
  return {
    input_tokens: Math.max(0, u.input - u.cacheRead - u.cacheWrite),
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
  };
}

function parseInput(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText);
  } catch {
    return {}; // a deliberately broken argument string has no object form
  }
}

interface PlannedBlock {
  start: Block;
  full: Block;
  deltas: Block[];
}

function planBlocks(reply: ResolvedReply, ctx: RenderContext): PlannedBlock[] {
  const size = reply.chunkSize;
  const blocks: PlannedBlock[] = [];
  // Thinking blocks come only with extended thinking enabled, signed by this server instance.
  if (reply.reasoning !== "" && ctx.reasoningAsked) {
    const signature = ctx.signer.sign("sig", reply.reasoning);
    blocks.push({
      start: { type: "thinking", thinking: "", signature: "" },
      full: { type: "thinking", thinking: reply.reasoning, signature },
      deltas: [
        ...chunk(reply.reasoning, size).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature },
      ],
    });
  }
  // Anthropic has no refusal block: a refusal is text with stop_reason "refusal".
  const text = reply.text + reply.refusal;
  if (text !== "") {
    blocks.push({
      start: { type: "text", text: "" },
      full: { type: "text", text },
      deltas: chunk(text, size).map((t) => ({ type: "text_delta", text: t })),
    });
  }
  for (const call of reply.toolCalls) {
    const id = call.id ?? ctx.ids.next("toolu_");
    blocks.push({
      start: { type: "tool_use", id, name: call.name, input: {} },
      full: { type: "tool_use", id, name: call.name, input: parseInput(call.argumentsText) },
      deltas: chunk(call.argumentsText, size).map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      })),
    });
  }
  return blocks;
}

export function renderAnthropicJson(reply: ResolvedReply, ctx: RenderContext): unknown {
  const id = reply.id ?? ctx.ids.next("msg_");
  return {
    id,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: planBlocks(reply, ctx).map((b) => b.full),
    stop_reason: STOP[reply.stopReason],
    stop_sequence: null,
    usage: { ...inputUsage(reply.usage), output_tokens: reply.usage.output },
  };
}

export function renderAnthropicStream(reply: ResolvedReply, ctx: RenderContext): SseEvent[] {
  const id = reply.id ?? ctx.ids.next("msg_");
  const events: SseEvent[] = [];
  const emit = (payload: Block): void => {
    events.push(sseEvent(String(payload.type), payload));
  };
  emit({
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...inputUsage(reply.usage), output_tokens: 1 },
    },
  });
  planBlocks(reply, ctx).forEach((block, index) => {
    emit({ type: "content_block_start", index, content_block: block.start });
    if (index === 0) emit({ type: "ping" });
    for (const delta of block.deltas) emit({ type: "content_block_delta", index, delta });
    emit({ type: "content_block_stop", index });
  });
  emit({
    type: "message_delta",
    delta: { stop_reason: STOP[reply.stopReason], stop_sequence: null },
    usage: { output_tokens: reply.usage.output },
  });
  emit({ type: "message_stop" });
  return events;
}
