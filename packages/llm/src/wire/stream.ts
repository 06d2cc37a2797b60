// The public entry points: one LLM call as a normalised event stream (ARCHITECTURE.md).
// Never throws; exactly one terminal event; partial output is never a `done` (SPEC L7).
import { type LlmError, llmError } from "../errors.js";
import type { StreamEvent, TerminalEvent } from "../events.js";
import type { Runtime } from "../runtime.js";
import type { AssistantMessage, LlmRequest, Origin } from "../types.js";
import type { BuiltRequest, WireAdapter } from "./adapter.js";
import { adapterFor } from "./adapters.js";
import { scrubSecrets } from "./classify.js";
import { stampIssuer } from "./issuer.js";
import { SseOverflow, SseParser } from "./sse.js";

/** A non-streamed reply larger than this is refused (a healthy one is well under 10 MB). */
export const MAX_JSON_BODY_CHARS = 64 * 1024 * 1024;

import { type BodyReader, openRequest, TransportFailure } from "./transport.js";

export interface StreamOptions {
  signal?: AbortSignal;
  /** Longest silence between two body chunks before the call counts as stalled. */
  idleTimeoutMs?: number;
  /** Longest wait from sending the request to the first byte of the body (head included). */
  connectTimeoutMs?: number;
  /** Injected fetch (tests, proxies); without it node:http(s) with keep-alive agents is used. */
  fetch?: typeof fetch;
}

/**
 * Defaults, overridden per provider by `providers.ID.timeouts` (a slow local model may need more):
 * - first byte 60 s: the head and the first body byte. Streaming routes send their first event
 *   (message_start, a role chunk, `response.created`, or a keep-alive comment) long before the
 *   first token, so 60 s is ample even for a reasoning model, and a dead route shows in a minute,
 *   not in two and a half.
 * - idle 45 s: once bytes flow, every major route sends a token, a reasoning delta or a ping
 *   (Anthropic pings, OpenRouter sends `: PROCESSING` comments) well within that; 45 s of
 *   silence mid-stream is a dead connection.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;

export type CompleteResult = { ok: true; message: AssistantMessage } | { ok: false; error: LlmError };

export async function* streamLlm(
  runtime: Runtime,
  request: LlmRequest,
  opts: StreamOptions = {},
): AsyncGenerator<StreamEvent, void, undefined> {
  const secrets = [runtime.apiKey];
  let terminal: TerminalEvent;
  try {
    terminal = yield* run(runtime, request, opts);
  } catch (err) {
    // Only a bug of ours gets here; it still ends the stream as an event.
    const text = err instanceof Error ? err.message : String(err);
    terminal = { type: "error", error: llmError("invalid_response", `internal error: ${text}`) };
  }
  if (opts.signal?.aborted) terminal = abortedEvent();
  if (terminal.type === "done") terminal = { type: "done", message: stampIssuer(terminal.message, runtime) };
  if (terminal.type === "error") {
    terminal = {
      type: "error",
      error: { ...terminal.error, message: scrubSecrets(terminal.error.message, secrets) },
    };
  }
  yield terminal;
}

export async function completeLlm(
  runtime: Runtime,
  request: LlmRequest,
  opts: StreamOptions = {},
): Promise<CompleteResult> {
  for await (const event of streamLlm(runtime, request, opts)) {
    if (event.type === "done") return { ok: true, message: event.message };
    if (event.type === "error") return { ok: false, error: event.error };
  }
  return { ok: false, error: llmError("invalid_response", "the stream ended without a result") };
}

function abortedEvent(): TerminalEvent {
  return { type: "error", error: llmError("aborted", "the request was aborted") };
}

/** Yields the non-terminal events and returns the terminal one. */
async function* run(
  runtime: Runtime,
  request: LlmRequest,
  opts: StreamOptions,
): AsyncGenerator<StreamEvent, TerminalEvent, undefined> {
  const adapter = adapterFor(runtime.apiMode);
  const origin: Origin = { provider: runtime.provider, apiMode: runtime.apiMode, model: request.model };
  let built: BuiltRequest;
  try {
    built = adapter.buildRequest(runtime, request);
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    return { type: "error", error: llmError("invalid_request", `could not build the request: ${text}`) };
  }
  const streaming = request.stream !== false;
  const opened = await openRequest(runtime, built, {
    signal: opts.signal,
    connectTimeoutMs: opts.connectTimeoutMs ?? runtime.timeouts?.firstByteMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: opts.idleTimeoutMs ?? runtime.timeouts?.idleMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    fetch: opts.fetch,
    stream: streaming,
  });
  if (!opened.ok) return { type: "error", error: opened.error };
  yield { type: "start" };
  // A route that ignores `stream: true` and answers with one JSON body is still understood.
  const isJson = /application\/json/i.test(opened.body.contentType);
  try {
    if (!streaming || isJson) return yield* replayJson(adapter, opened.body, origin);
    return yield* reduceSse(adapter, opened.body, origin, opts.signal);
  } catch (err) {
    if (err instanceof TransportFailure) return { type: "error", error: err.error };
    if (err instanceof SseOverflow)
      return { type: "error", error: llmError("invalid_response", `the reply was refused: ${err.message}`) };
    throw err;
  }
}

async function* reduceSse(
  adapter: WireAdapter,
  body: BodyReader,
  origin: Origin,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, TerminalEvent, undefined> {
  const parser = new SseParser();
  const reducer = adapter.createReducer(origin);
  for await (const chunk of body.chunks()) {
    for (const sse of parser.push(chunk)) {
      for (const event of reducer.push(sse)) {
        // Leaving the loop cancels the body: nothing after the terminal event is read.
        if (event.type === "done" || event.type === "error") return event;
        // An abort wins at once, even over events already received (SPEC L7).
        if (signal?.aborted) return abortedEvent();
        if (event.type !== "start") yield event;
      }
    }
  }
  const tail = [...parser.end().flatMap((sse) => reducer.push(sse)), ...reducer.end()];
  for (const event of tail) {
    if (event.type === "done" || event.type === "error") return event;
    if (event.type !== "start") yield event;
  }
  return { type: "error", error: llmError("invalid_response", "the reply ended without a result") };
}

async function* replayJson(
  adapter: WireAdapter,
  body: BodyReader,
  origin: Origin,
): AsyncGenerator<StreamEvent, TerminalEvent, undefined> {
  const text = await body.text(MAX_JSON_BODY_CHARS + 1);
  if (text.length > MAX_JSON_BODY_CHARS)
    return {
      type: "error",
      error: llmError(
        "invalid_response",
        `the reply was refused: a body larger than ${MAX_JSON_BODY_CHARS / 1024 / 1024} M characters`,
      ),
    };
  if (text.trim() === "")
    return { type: "error", error: llmError("invalid_response", "the reply was empty") };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      type: "error",
      error: llmError("invalid_response", `malformed JSON reply: ${text.slice(0, 80)}`),
    };
  }
  const result = adapter.parseResponse(json, origin);
  if (!("role" in result)) return { type: "error", error: result };
  yield* eventsOfMessage(result);
  return { type: "done", message: result };
}

/** The event sequence a stream would have produced for a finished message. */
export function* eventsOfMessage(message: AssistantMessage): Generator<StreamEvent, void, undefined> {
  for (const [index, part] of message.parts.entries()) {
    if (part.type === "text") {
      yield { type: "text_start", index };
      yield { type: "text_delta", index, delta: part.text };
      yield { type: "text_end", index, text: part.text };
    } else if (part.type === "reasoning") {
      yield { type: "reasoning_start", index };
      yield { type: "reasoning_delta", index, delta: part.text };
      yield { type: "reasoning_end", index, text: part.text };
    } else {
      yield { type: "toolcall_start", index, callId: part.callId, name: part.name };
      yield { type: "toolcall_delta", index, delta: part.argumentsJson };
      yield { type: "toolcall_end", index, call: part };
    }
  }
}
