/** OpenAI Responses: the `response` object as JSON, and its typed SSE events (event name = type). */
import { chunk, type RenderContext, type ResolvedReply, type ResolvedUsage } from "../reply.js";
import { type SseEvent, sseEvent } from "../sse.js";

type Item = Record<string, unknown>;
type Payload = Record<string, unknown>;

export function responsesUsage(u: ResolvedUsage): Record<string, unknown> {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
}

/** Items in output order, each with the events that stream it (between added and done). */
interface PlannedItem {
  done: Item;
  added: Item;
  body: (outputIndex: number) => Payload[];
}

function planItems(reply: ResolvedReply, ctx: RenderContext): PlannedItem[] {
  const items: PlannedItem[] = [];
  const size = reply.chunkSize;
  if (reply.reasoning !== "") {
    const id = ctx.ids.next("rs_");
    // Encrypted reasoning only when the request asked for it (include), as the real API does.
    const enc = ctx.reasoningAsked ? { encrypted_content: ctx.signer.sign("enc", reply.reasoning) } : {};
    const part = { type: "summary_text", text: reply.reasoning };
    items.push({
      added: { id, type: "reasoning", summary: [], ...enc },
      done: { id, type: "reasoning", summary: [part], ...enc },
      body: (output_index) => {
        const at = { item_id: id, output_index, summary_index: 0 };
        return [
          { type: "response.reasoning_summary_part.added", ...at, part: { type: "summary_text", text: "" } },
          ...chunk(reply.reasoning, size).map((delta) => ({
            type: "response.reasoning_summary_text.delta",
            ...at,
            delta,
          })),
          { type: "response.reasoning_summary_text.done", ...at, text: reply.reasoning },
          { type: "response.reasoning_summary_part.done", ...at, part },
        ];
      },
    });
  }
  const parts: { kind: "output_text" | "refusal"; text: string }[] = [];
  if (reply.text !== "") parts.push({ kind: "output_text", text: reply.text });
  if (reply.refusal !== "") parts.push({ kind: "refusal", text: reply.refusal });
  if (parts.length > 0) {
    const id = ctx.ids.next("msg_");
    const full = (p: (typeof parts)[number]): Item =>
      p.kind === "refusal"
        ? { type: "refusal", refusal: p.text }
        : { type: "output_text", text: p.text, annotations: [], logprobs: [] };
    const empty = (p: (typeof parts)[number]): Item => full({ kind: p.kind, text: "" });
    items.push({
      added: { id, type: "message", status: "in_progress", role: "assistant", content: [] },
      done: { id, type: "message", status: "completed", role: "assistant", content: parts.map(full) },
      body: (output_index) =>
        parts.flatMap((p, content_index) => {
          const at = { item_id: id, output_index, content_index };
          const isText = p.kind === "output_text";
          const deltaType = isText ? "response.output_text.delta" : "response.refusal.delta";
          const extra = isText ? { logprobs: [] } : {};
          return [
            { type: "response.content_part.added", ...at, part: empty(p) },
            ...chunk(p.text, size).map((delta) => ({ type: deltaType, ...at, delta, ...extra })),
            isText
              ? { type: "response.output_text.done", ...at, text: p.text, logprobs: [] }
              : { type: "response.refusal.done", ...at, refusal: p.text },
            { type: "response.content_part.done", ...at, part: full(p) },
          ];
        }),
    });
  }
  for (const call of reply.toolCalls) {
    const id = ctx.ids.next("fc_");
    const callId = call.id ?? ctx.ids.next("call_");
    const base = { id, type: "function_call", call_id: callId, name: call.name };
    items.push({
      added: { ...base, status: "in_progress", arguments: "" },
      done: { ...base, status: "completed", arguments: call.argumentsText },
      body: (output_index) => [
        ...chunk(call.argumentsText, size).map((delta) => ({
          type: "response.function_call_arguments.delta",
          item_id: id,
          output_index,
          delta,
        })),
        {
          type: "response.function_call_arguments.done",
          item_id: id,
          output_index,
          name: call.name,
          arguments: call.argumentsText,
        },
      ],
    });
  }
  return items;
}

function responseObject(
  reply: ResolvedReply,
  ctx: RenderContext,
  id: string,
  final: boolean,
  output: Item[],
): Payload {
  const incomplete = reply.stopReason === "max_tokens";
  return {
    id,
    object: "response",
    created_at: ctx.created,
    status: !final ? "in_progress" : incomplete ? "incomplete" : "completed",
    error: null,
    incomplete_details: final && incomplete ? { reason: "max_output_tokens" } : null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    usage: final ? responsesUsage(reply.usage) : null,
  };
}

export function renderResponsesJson(reply: ResolvedReply, ctx: RenderContext): unknown {
  const id = reply.id ?? ctx.ids.next("resp_");
  const items = planItems(reply, ctx);
  return responseObject(
    reply,
    ctx,
    id,
    true,
    items.map((i) => i.done),
  );
}

export function renderResponsesStream(reply: ResolvedReply, ctx: RenderContext): SseEvent[] {
  const id = reply.id ?? ctx.ids.next("resp_");
  const items = planItems(reply, ctx);
  const payloads: Payload[] = [
    { type: "response.created", response: responseObject(reply, ctx, id, false, []) },
    { type: "response.in_progress", response: responseObject(reply, ctx, id, false, []) },
  ];
  items.forEach((item, output_index) => {
    payloads.push({ type: "response.output_item.added", output_index, item: item.added });
    payloads.push(...item.body(output_index));
    payloads.push({ type: "response.output_item.done", output_index, item: item.done });
  });
  const finalType = reply.stopReason === "max_tokens" ? "response.incomplete" : "response.completed";
  payloads.push({
    type: finalType,
    response: responseObject(
      reply,
      ctx,
      id,
      true,
      items.map((i) => i.done),
    ),
  });
  return payloads.map((p, sequence_number) => sseEvent(String(p.type), { ...p, sequence_number }));
}
