// `iris -p … --output-format json|stream-json` (SPEC K6, E5): machine-readable results.
// The schemas are documented in README.md ("Scripting"); keys are snake_case and only ever added.
//   json         one object, the result below, on stdout when the turn ends
//   stream-json  one JSON object per line: `init`, then the E5 callbacks as they happen
//                (thinking, stream_delta, reasoning, tool_gen, tool_progress, step, status,
//                stream_reset), `tool_result` (what each call returned to the model), then
//                exactly one `result`
// Both read the turn as host's turn view reports it (ui/turn-feed.ts), as every front end does.
import type { TurnChange, TurnResult } from "@iris/host";
import { exitCodeFor } from "@iris/host";
import type { TurnFeed } from "./ui/turn-feed.js";

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
export function recordToolCalls(feed: TurnFeed): { calls: ToolCallRecord[]; detach(): void } {
  const calls: ToolCallRecord[] = [];
  const byId = new Map<string, ToolCallRecord>();
  const detach = feed.on((c) => {
    if (c.kind !== "tool") return;
    const { call } = c;
    if (c.phase === "generated") {
      const rec: ToolCallRecord = {
        id: call.callId,
        name: call.name,
        arguments: parsedArgs(call.argumentsJson ?? ""),
        is_error: null,
        duration_ms: null,
      };
      byId.set(call.callId, rec);
      calls.push(rec);
    } else if (c.phase === "after") {
      const rec = byId.get(call.callId);
      if (rec) Object.assign(rec, { is_error: c.isError === true, duration_ms: call.durationMs ?? null });
    }
  });
  return { calls, detach };
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

/**
 * Writes the E5 callbacks as JSON lines while the turn runs. An empty text or reasoning delta
 * (nothing to show) is no line: the turn view reports none.
 */
export function streamJsonEvents(feed: TurnFeed, line: (obj: object) => void): () => void {
  return feed.on((c) => {
    switch (c.kind) {
      case "thinking":
        return line({ type: "thinking", active: c.active });
      case "text":
        return line({ type: "stream_delta", text: c.delta });
      case "reasoning":
        return line({ type: "reasoning", text: c.delta });
      case "step":
        return line({ type: "step", step_id: c.stepId, round: c.round });
      case "notice":
        return line({ type: "status", level: c.level, message: c.message });
      case "reset":
        return line({ type: "stream_reset", step_id: c.stepId, reason: c.reason });
      case "tool":
        return toolLines(c, line);
      default:
        return;
    }
  });
}

function toolLines(c: Extract<TurnChange, { kind: "tool" }>, line: (obj: object) => void): void {
  const { call } = c;
  if (c.phase === "generated") {
    line({
      type: "tool_gen",
      call: { id: call.callId, name: call.name, arguments: parsedArgs(call.argumentsJson ?? "") },
    });
    return;
  }
  line({
    type: "tool_progress",
    phase: c.phase,
    call_id: call.callId,
    name: call.name,
    ...(c.preview !== undefined ? { preview: c.preview } : {}),
    ...(c.message !== undefined ? { message: c.message } : {}),
    ...(c.isError !== undefined ? { is_error: c.isError } : {}),
  });
  // What the model got back from the call, as Claude Code's `tool_result` events carry it.
  if (c.phase === "after" && c.result !== undefined)
    line({
      type: "tool_result",
      call_id: call.callId,
      name: call.name,
      content: c.result,
      is_error: c.isError === true,
    });
}
