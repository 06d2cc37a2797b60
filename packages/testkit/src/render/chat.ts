/** OpenAI Chat Completions: `chat.completion` JSON and `chat.completion.chunk` SSE (no event names). */
import { chunk, type RenderContext, type ResolvedReply, type ResolvedUsage } from "../reply.js";
import { type SseEvent, sseEvent } from "../sse.js";

/** An upstream Claude thinking block as OpenRouter passes it on. */
const DETAIL = { type: "reasoning.text", format: "anthropic-claude-v1", index: 0 } as const;

const FINISH: Record<ResolvedReply["stopReason"], string> = {
  end: "stop",
  tool_calls: "tool_calls",
  max_tokens: "length",
  refusal: "stop",
};

export function chatUsage(u: ResolvedUsage): Record<string, unknown> {
  const promptDetails: Record<string, number> = { cached_tokens: u.cacheRead, audio_tokens: 0 };
  // Not part of OpenAI's own schema; OpenAI-compatible gateways (OpenRouter, Kimi…) report it so.
  if (u.cacheWrite > 0) promptDetails.cache_write_tokens = u.cacheWrite;
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: u.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

interface ChatIds {
  id: string;
  callIds: string[];
}

function mintIds(reply: ResolvedReply, ctx: RenderContext): ChatIds {
  return {
    id: reply.id ?? ctx.ids.next("chatcmpl-"),
    callIds: reply.toolCalls.map((c) => c.id ?? ctx.ids.next("call_")),
  };
}

export function renderChatJson(reply: ResolvedReply, ctx: RenderContext): unknown {
  const ids = mintIds(reply, ctx);
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.text === "" && (reply.toolCalls.length > 0 || reply.refusal !== "") ? null : reply.text,
    refusal: reply.refusal === "" ? null : reply.refusal,
  };
  if (reply.reasoning !== "") message[ctx.reasoningField ?? "reasoning_content"] = reply.reasoning;
  if (reply.reasoning !== "" && ctx.reasoningDetails)
    message.reasoning_details = [
      { ...DETAIL, text: reply.reasoning, signature: ctx.signer.sign("sig", reply.reasoning) },
    ];
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((c, i) => ({
      id: ids.callIds[i],
      type: "function",
      function: { name: c.name, arguments: c.argumentsText },
    }));
  }
  return {
    id: ids.id,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH[reply.stopReason] }],
    usage: chatUsage(reply.usage),
    system_fingerprint: null,
  };
}

export function renderChatStream(
  reply: ResolvedReply,
  ctx: RenderContext,
  includeUsage: boolean,
): SseEvent[] {
  const ids = mintIds(reply, ctx);
  const events: SseEvent[] = [];
  const push = (delta: Record<string, unknown>, finish: string | null = null): void => {
    const payload: Record<string, unknown> = {
      id: ids.id,
      object: "chat.completion.chunk",
      created: ctx.created,
      model: ctx.model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    if (includeUsage) payload.usage = null;
    events.push(sseEvent(undefined, payload));
  };
  push({ role: "assistant", content: "", refusal: null });
  const field = ctx.reasoningField ?? "reasoning_content";
  for (const piece of chunk(reply.reasoning, reply.chunkSize)) {
    push(
      ctx.reasoningDetails
        ? { [field]: piece, reasoning_details: [{ ...DETAIL, text: piece }] }
        : { [field]: piece },
    );
  }
  // OpenRouter sends the thinking block's signature once its text is complete.
  if (reply.reasoning !== "" && ctx.reasoningDetails)
    push({
      reasoning_details: [
        { type: DETAIL.type, index: 0, signature: ctx.signer.sign("sig", reply.reasoning) },
      ],
    });
  for (const piece of chunk(reply.text, reply.chunkSize)) push({ content: piece });
  for (const piece of chunk(reply.refusal, reply.chunkSize)) push({ refusal: piece });
  reply.toolCalls.forEach((call, index) => {
    push({
      tool_calls: [
        { index, id: ids.callIds[index], type: "function", function: { name: call.name, arguments: "" } },
      ],
    });
    for (const piece of chunk(call.argumentsText, reply.chunkSize)) {
      push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  push({}, FINISH[reply.stopReason]);
  if (includeUsage) {
    events.push(
      sseEvent(undefined, {
        id: ids.id,
        object: "chat.completion.chunk",
        created: ctx.created,
        model: ctx.model,
        system_fingerprint: null,
        choices: [],
        usage: chatUsage(reply.usage),
      }),
    );
  }
  events.push({ data: "[DONE]" });
  return events;
}
