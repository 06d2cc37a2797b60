// The one normalised stream every wire format is reduced to (ARCHITECTURE.md).
// Order: `start`, then text/reasoning/toolcall start-delta-end groups, then exactly one
// `done` or `error`. A stream never throws; partial output is only ever an event, never history.
import type { LlmError } from "./errors.js";
import type { AssistantMessage, ToolCallPart } from "./types.js";

export type StreamEvent =
  | { type: "start" }
  | { type: "text_start"; index: number }
  | { type: "text_delta"; index: number; delta: string }
  | { type: "text_end"; index: number; text: string }
  | { type: "reasoning_start"; index: number }
  | { type: "reasoning_delta"; index: number; delta: string }
  | { type: "reasoning_end"; index: number; text: string }
  | { type: "toolcall_start"; index: number; callId: string; name: string }
  | { type: "toolcall_delta"; index: number; delta: string }
  | { type: "toolcall_end"; index: number; call: ToolCallPart }
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; error: LlmError };

export type TerminalEvent = Extract<StreamEvent, { type: "done" } | { type: "error" }>;
