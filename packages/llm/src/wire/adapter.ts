// What each wire format provides: a request builder and a pure event reducer (ARCHITECTURE.md).
// The transport (wire/transport.ts) does the I/O and is shared by all three.
import type { LlmError } from "../errors.js";
import type { StreamEvent } from "../events.js";
import type { Runtime } from "../runtime.js";
import type { ApiMode, AssistantMessage, LlmRequest, Origin } from "../types.js";

/** One parsed Server-Sent Event. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

export interface BuiltRequest {
  /** Appended to runtime.baseUrl, e.g. "/chat/completions". */
  path: string;
  body: Record<string, unknown>;
  /** Format headers (e.g. anthropic-version). Never the key: the transport attaches it. */
  headers: Record<string, string>;
}

/**
 * Turns SSE events into normalised stream events. Pure: no I/O, no clock. `end()` is called when
 * the byte stream closes and returns the terminal event (`done`, or `error` when the reply was
 * cut short or carried nothing usable).
 */
export interface StreamReducer {
  push(event: SseEvent): StreamEvent[];
  end(): StreamEvent[];
}

export interface WireAdapter {
  apiMode: ApiMode;
  buildRequest(runtime: Runtime, request: LlmRequest): BuiltRequest;
  createReducer(origin: Origin): StreamReducer;
  /** Non-streaming reply body → message (or an invalid_response error). */
  parseResponse(body: unknown, origin: Origin): AssistantMessage | LlmError;
}
