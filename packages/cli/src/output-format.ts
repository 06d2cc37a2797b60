// `iris -p … --output-format json|stream-json` (SPEC K6, E5): machine-readable results.
// The schemas are documented in README.md ("Scripting"); keys are snake_case and only ever added.
//   json         one object, the result below, on stdout when the turn ends
//   stream-json  one JSON object per line: `init`, then the E5 callbacks as they happen
//                (thinking, stream_delta, reasoning, tool_gen, tool_progress, step, status,
//                stream_reset), `tool_result` (what each call returned to the model), then
//                exactly one `result`
import type { AgentEvents, TurnResult } from "@iris/host";
import { exitCodeFor } from "@iris/host";

export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

export interface ToolCallRecord {
  id: string;
  name: string;
  /** The parsed arguments, or the raw text when the model sent invalid JSON. */
  arguments: unknown;
  is_error: boolean | null;
  duration_ms: number | null;
}

export interface ResultObject {
  type: "result";
  /** The answer on a natural end; otherwise the message saying why there is none. */
  text: string;
  is_error: boolean;
  /** The termination reason (SPEC L5): natural, max_rounds, user_cancelled, … */
  reason: string;
  exit_code: number;
  session_id: string;
  provider: string;
  model: string;
  rounds: number;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_tokens: number;
    cache_write_tokens: number;
    reasoning_tokens: number;
  };
  /** null when the model's price is unknown (never a made-up $0). */
  cost_usd: number | null;
  tool_calls: ToolCallRecord[];
  duration_ms: number;
}

function parsedArgs(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** Records every tool call of the turn, in order, with its outcome. */
export function recordToolCalls(events: AgentEvents): { calls: ToolCallRecord[]; detach(): void } {
  const calls: ToolCallRecord[] = [];
  const byId = new Map<string, ToolCallRecord>();
  const offs = [
    events.on("tool_gen", ({ call }) => {
      const rec: ToolCallRecord = {
        id: call.callId,
        name: call.name,
        arguments: parsedArgs(call.argumentsJson),
        is_error: null,
        duration_ms: null,
      };
      byId.set(call.callId, rec);
      calls.push(rec);
    }),
    events.on("tool_exec_ended", (e) => {
      const rec = byId.get(e.callId);
      if (rec) Object.assign(rec, { is_error: e.isError, duration_ms: e.durationMs });
    }),
  ];
  return {
    calls,
    detach: () => {
      for (const off of offs) off();
    },
  };
}

export function resultObject(
  result: TurnResult,
  ctx: {
    sessionId: string;
    provider: string;
    model: string;
    priceKnown: boolean;
    toolCalls: ToolCallRecord[];
    startedAt: number;
  },
): ResultObject {
  const exit = exitCodeFor(result.reason);
  return {
    type: "result",
    text: result.text,
    is_error: exit !== 0,
    reason: result.reason,
    exit_code: exit,
    session_id: ctx.sessionId,
    provider: ctx.provider,
    model: ctx.model,
    rounds: result.rounds,
    usage: {
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cache_read_tokens: result.usage.cacheReadTokens,
      cache_write_tokens: result.usage.cacheWriteTokens,
      reasoning_tokens: result.usage.reasoningTokens,
    },
    cost_usd: ctx.priceKnown ? result.costUsd : null,
    tool_calls: ctx.toolCalls,
    duration_ms: Date.now() - ctx.startedAt,
  };
}

/** Writes the E5 callbacks as JSON lines while the turn runs. */
export function streamJsonEvents(events: AgentEvents, line: (obj: object) => void): () => void {
  const offs = [
    events.on("thinking", (e) => line({ type: "thinking", active: e.active })),
    events.on("stream_delta", (e) => line({ type: "stream_delta", text: e.text })),
    events.on("reasoning", (e) => line({ type: "reasoning", text: e.text })),
    events.on("tool_gen", ({ call }) =>
      line({
        type: "tool_gen",
        call: { id: call.callId, name: call.name, arguments: parsedArgs(call.argumentsJson) },
      }),
    ),
    events.on("tool_progress", (e) => {
      line({
        type: "tool_progress",
        phase: e.phase,
        call_id: e.callId,
        name: e.name,
        ...(e.preview !== undefined ? { preview: e.preview } : {}),
        ...(e.message !== undefined ? { message: e.message } : {}),
        ...(e.isError !== undefined ? { is_error: e.isError } : {}),
      });
      // What the model got back from the call, as Claude Code's `tool_result` events carry it.
      if (e.phase === "after" && e.result !== undefined)
        line({
          type: "tool_result",
          call_id: e.callId,
          name: e.name,
          content: e.result,
          is_error: e.isError === true,
        });
    }),
    events.on("step", (e) => line({ type: "step", step_id: e.stepId, round: e.round })),
    events.on("status", (e) => line({ type: "status", level: e.level, message: e.message })),
    events.on("stream_reset", (e) => line({ type: "stream_reset", step_id: e.stepId, reason: e.reason })),
  ];
  return () => {
    for (const off of offs) off();
  };
}
