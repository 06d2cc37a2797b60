// Reduction speed of each wire format: N small text deltas as synthesised SSE bytes → SSE parser →
// the adapter's reducer. Prints deltas per second; 10k and 100k runs side by side show whether the
// cost grows linearly (similar rates) or quadratically (the 100k rate collapses).
// Run: npx tsx bench/llm-stream.ts
import { API_MODES, type ApiMode, type Origin, type StreamEvent } from "../packages/llm/src/index.js";
import { adapterFor } from "../packages/llm/src/wire/adapters.js";
import { SseParser } from "../packages/llm/src/wire/sse.js";

const DELTA = "ab";

function ev(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

function chatStream(n: number): string[] {
  const chunk = (delta: object, finish: string | null = null) =>
    ev(undefined, {
      id: "chatcmpl-b",
      object: "chat.completion.chunk",
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const out = [chunk({ role: "assistant", content: "" })];
  for (let i = 0; i < n; i++) out.push(chunk({ content: DELTA }));
  out.push(chunk({}, "stop"));
  out.push(
    ev(undefined, { id: "chatcmpl-b", choices: [], usage: { prompt_tokens: 10, completion_tokens: n } }),
  );
  out.push(ev(undefined, "[DONE]"));
  return out;
}

function responsesStream(n: number): string[] {
  const item = { id: "msg_b", type: "message", role: "assistant", status: "in_progress", content: [] };
  const text = DELTA.repeat(n);
  const done = { ...item, status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
  const base = { output_index: 0, item_id: "msg_b", content_index: 0 };
  const out = [
    ev("response.created", {
      type: "response.created",
      response: { id: "resp_b", object: "response", status: "in_progress", output: [] },
    }),
    ev("response.output_item.added", { type: "response.output_item.added", output_index: 0, item }),
    ev("response.content_part.added", {
      type: "response.content_part.added",
      ...base,
      part: { type: "output_text", text: "", annotations: [] },
    }),
  ];
  for (let i = 0; i < n; i++)
    out.push(ev("response.output_text.delta", { type: "response.output_text.delta", ...base, delta: DELTA }));
  out.push(
    ev("response.output_text.done", { type: "response.output_text.done", ...base, text }),
    ev("response.content_part.done", { type: "response.content_part.done", ...base, part: done.content[0] }),
    ev("response.output_item.done", { type: "response.output_item.done", output_index: 0, item: done }),
    ev("response.completed", {
      type: "response.completed",
      response: {
        id: "resp_b",
        object: "response",
        status: "completed",
        output: [done],
        usage: {
          input_tokens: 10,
          output_tokens: n,
          total_tokens: n + 10,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
    }),
  );
  return out;
}

function anthropicStream(n: number): string[] {
  const out = [
    ev("message_start", {
      type: "message_start",
      message: {
        id: "msg_b",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    ev("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
  ];
  for (let i = 0; i < n; i++) {
    out.push(
      ev("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: DELTA },
      }),
    );
  }
  out.push(
    ev("content_block_stop", { type: "content_block_stop", index: 0 }),
    ev("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: n },
    }),
    ev("message_stop", { type: "message_stop" }),
  );
  return out;
}

const SYNTH: Record<ApiMode, (n: number) => string[]> = {
  chat_completions: chatStream,
  responses: responsesStream,
  anthropic_messages: anthropicStream,
};

/** Network-like framing: 1 KiB byte chunks, cut wherever they fall. */
function toChunks(events: string[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(events.join(""));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 1024) chunks.push(bytes.subarray(i, i + 1024));
  return chunks;
}

/** One reduction; returns ms, or a reason why this adapter cannot be measured yet. */
function reduceOnce(mode: ApiMode, chunks: Uint8Array[], n: number): number | string {
  const origin: Origin = { provider: "bench", apiMode: mode, model: "m" };
  const t0 = performance.now();
  const parser = new SseParser();
  const reducer = adapterFor(mode).createReducer(origin);
  let terminal: StreamEvent | undefined;
  let deltas = 0;
  const take = (events: StreamEvent[]) => {
    for (const e of events) {
      if (e.type === "text_delta") deltas++;
      else if (e.type === "done" || e.type === "error") terminal ??= e;
    }
  };
  for (const c of chunks) for (const sse of parser.push(c)) take(reducer.push(sse));
  for (const sse of parser.end()) take(reducer.push(sse));
  take(reducer.end());
  const ms = performance.now() - t0;
  if (terminal?.type !== "done")
    return terminal?.type === "error" ? terminal.error.message : "no terminal event";
  const text = terminal.message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  if (text.length !== n * DELTA.length || deltas !== n)
    return `wrong result (${deltas} deltas, ${text.length} chars)`;
  return ms;
}

function rate(mode: ApiMode, n: number): string {
  const chunks = toChunks(SYNTH[mode](n));
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const r = reduceOnce(mode, chunks, n);
    if (typeof r === "string") return `n/a (${r})`;
    best = Math.min(best, r);
  }
  return `${Math.round(n / (best / 1000)).toLocaleString("en-US")} deltas/s (${best.toFixed(1)} ms)`;
}

console.log("llm stream reduction: SSE bytes → parser → reducer, best of 5");
for (const mode of API_MODES) {
  console.log(`${mode.padEnd(20)} 10k: ${rate(mode, 10_000).padEnd(36)} 100k: ${rate(mode, 100_000)}`);
}
