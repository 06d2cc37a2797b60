// One turn as a front end renders it (SPEC E5): a reducer over a session's events that keeps the
// answer's text so far, the reasoning, the tool calls with their status, subagent activity folded
// under the parent's turn, and the usage of every model call. `apply` says what one event changed,
// so a stream writes only that; `state` is the whole picture (a dashboard, a redraw). A subagent's
// text is never taken for the answer's text.
import { type Usage, ZERO_USAGE } from "@iris/llm";
import type { HostEvent } from "./events.js";
import { toolCallText } from "./tool-call-text.js";
import type { SubagentView, ToolCallView, TurnChange } from "./turn-change.js";
import { lifecycleChange } from "./turn-lifecycle.js";

export type { SubagentView, ToolCallStatus, ToolCallView, ToolPhase, TurnChange } from "./turn-change.js";

export interface TurnViewState {
  text: string;
  reasoning: string;
  tools: ToolCallView[];
  subagents: SubagentView[];
  /** Summed over the turn's own model calls. */
  usage: Usage;
  /** Set when the turn ended (its termination reason). */
  ended?: string;
}

export class TurnView {
  private readonly s: TurnViewState = {
    text: "",
    reasoning: "",
    tools: [],
    subagents: [],
    usage: ZERO_USAGE,
  };
  /** The text when the current model call began: what a stream_reset goes back to. */
  private textAtStep = 0;
  private stepId = 0;

  get state(): Readonly<TurnViewState> {
    return this.s;
  }

  /** Folds one event in; what it changed, or undefined (nothing a front end shows). */
  apply(e: HostEvent): TurnChange | undefined {
    if (e.parentTaskId !== undefined) return this.subagent(e);
    switch (e.name) {
      case "step":
        this.textAtStep = this.s.text.length;
        this.stepId = e.payload.stepId;
        return { kind: "step", stepId: e.payload.stepId, round: e.payload.round };
      case "thinking":
        return { kind: "thinking", active: e.payload.active };
      case "llm_call_started": {
        const { stepId, provider, model } = e.payload;
        return { kind: "waiting", seconds: 0, provider, model, stepId };
      }
      case "waiting":
        return { kind: "waiting", ...e.payload };
      case "status":
        return { kind: "notice", level: e.payload.level, message: e.payload.message };
      case "stream_delta":
        if (!e.payload.text) return undefined;
        this.s.text += e.payload.text;
        return { kind: "text", delta: e.payload.text };
      case "reasoning":
        if (!e.payload.text) return undefined;
        this.s.reasoning += e.payload.text;
        return { kind: "reasoning", delta: e.payload.text };
      case "stream_reset":
        this.s.text = this.s.text.slice(0, this.textAtStep);
        return { kind: "reset", text: this.s.text, ...e.payload };
      case "tool_gen": {
        const { callId, name, argumentsJson } = e.payload.call;
        const call = generated(this.s.tools, callId, name, argumentsJson, this.stepId);
        return { kind: "tool", phase: "generated", call };
      }
      case "tool_progress": {
        const p = e.payload;
        const call = track(this.s.tools, p, this.stepId);
        return {
          kind: "tool",
          phase: p.phase,
          call,
          ...(p.preview !== undefined ? { preview: p.preview } : {}),
          ...(p.message !== undefined ? { message: p.message } : {}),
          ...(p.phase === "after" ? { result: p.result ?? "", isError: p.isError === true } : {}),
        };
      }
      case "tool_exec_ended": {
        // Comes just before the call's "after" progress, which then carries the duration.
        const call = this.s.tools.find((t) => t.callId === e.payload.callId);
        if (call) call.durationMs = e.payload.durationMs;
        return undefined;
      }
      case "llm_call_ended": {
        const { message, stepId, latencyMs } = e.payload;
        this.s.usage = sum(this.s.usage, message.usage);
        return {
          kind: "usage",
          call: message.usage,
          total: this.s.usage,
          stepId,
          latencyMs,
          stopReason: message.stopReason,
        };
      }
      case "turn_completed":
        this.s.ended = e.payload.reason;
        return { kind: "ended", ...e.payload };
      default:
        return lifecycleChange(e);
    }
  }

  private subagent(e: HostEvent): TurnChange | undefined {
    let sub = this.s.subagents.find((x) => x.taskId === e.taskId);
    if (!sub) {
      sub = { taskId: e.taskId, parentTaskId: e.parentTaskId ?? "", text: "", tools: [], done: false };
      if (e.parentCallId !== undefined) sub.parentCallId = e.parentCallId;
      this.s.subagents.push(sub);
    }
    if (e.name === "stream_delta") sub.text += e.payload.text;
    else if (e.name === "tool_progress") {
      const call = track(sub.tools, e.payload, 0);
      return { kind: "subagent", subagent: sub, tool: { phase: e.payload.phase, call } };
    } else if (e.name === "turn_completed") sub.done = true;
    else return undefined;
    return { kind: "subagent", subagent: sub };
  }
}

type Progress = Extract<HostEvent, { name: "tool_progress" }>["payload"];

/** A call the model asked for, before it runs (its arguments as streamed). */
function generated(
  tools: ToolCallView[],
  callId: string,
  name: string,
  argumentsJson: string,
  stepId: number,
): ToolCallView {
  let call = tools.find((t) => t.callId === callId);
  if (!call) {
    call = { callId, name, text: toolCallText(name, argumentsJson), status: "running", stepId };
    tools.push(call);
  }
  call.argumentsJson = argumentsJson;
  return call;
}

function track(tools: ToolCallView[], p: Progress, stepId: number): ToolCallView {
  let call = tools.find((t) => t.callId === p.callId);
  if (!call) {
    call = {
      callId: p.callId,
      name: p.name,
      text: toolCallText(p.name, p.preview),
      status: "running",
      stepId,
    };
    tools.push(call);
  }
  if (p.phase === "after") call.status = p.isError ? "failed" : "done";
  else if (p.message !== undefined) call.message = p.message;
  return call;
}

function sum(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}
