// One turn as a front end renders it (SPEC E5): a reducer over a session's events that keeps the
// answer's text so far, the reasoning, the tool calls with their status, subagent activity folded
// under the parent's turn, and the usage of every model call. `apply` says what one event changed,
// so a stream writes only that; `state` is the whole picture (a dashboard, a redraw). A subagent's
// text is never taken for the answer's text.
import { type Usage, ZERO_USAGE } from "@iris/llm";
import type { HostEvent } from "./events.js";
import { toolCallText } from "./tool-call-text.js";

export type ToolCallStatus = "running" | "done" | "failed";

export interface ToolCallView {
  callId: string;
  name: string;
  /** The call as a person reads it: its main argument, no absolute path (tool-call-text.ts). */
  text: string;
  status: ToolCallStatus;
  /** The latest progress message of a running call. */
  message?: string;
  /** The model call (step) that asked for it. */
  stepId: number;
  /** The arguments as the model streamed them, when the call was seen before it ran. */
  argumentsJson?: string;
}

export interface SubagentView {
  taskId: string;
  text: string;
  tools: ToolCallView[];
  done: boolean;
}

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

export type ToolPhase = "generated" | "before" | "progress" | "after";

export type TurnChange =
  | { kind: "text"; delta: string }
  | { kind: "reasoning"; delta: string }
  /** A model call (step) begins. */
  | { kind: "step"; stepId: number }
  /** Waiting for the model: 0 as a call starts, then the seconds it has been silent. */
  | { kind: "waiting"; seconds: number }
  /** Step `stepId` failed and is retried: its partial text was withdrawn, `text` is what stands now. */
  | { kind: "reset"; text: string; stepId: number }
  /** `generated`: the model asked for the call (not run yet); `after`: its result, as the model gets it. */
  | { kind: "tool"; phase: ToolPhase; call: ToolCallView; result?: string; isError?: boolean }
  /** A subagent's activity; `tool` when a call of its own moved. */
  | { kind: "subagent"; subagent: SubagentView; tool?: { phase: ToolPhase; call: ToolCallView } }
  /** One model call's usage, and the turn's so far. */
  | { kind: "usage"; call: Usage; total: Usage }
  | { kind: "notice"; level: "info" | "warn" | "error"; message: string }
  | { kind: "ended"; reason: string };

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
        return { kind: "step", stepId: e.payload.stepId };
      case "llm_call_started":
        return { kind: "waiting", seconds: 0 };
      case "waiting":
        return { kind: "waiting", seconds: e.payload.seconds };
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
        return { kind: "reset", text: this.s.text, stepId: e.payload.stepId };
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
          ...(p.phase === "after" ? { result: p.result ?? "", isError: p.isError === true } : {}),
        };
      }
      case "llm_call_ended": {
        const call = e.payload.message.usage;
        this.s.usage = sum(this.s.usage, call);
        return { kind: "usage", call, total: this.s.usage };
      }
      case "turn_completed":
        this.s.ended = e.payload.reason;
        return { kind: "ended", reason: e.payload.reason };
      default:
        return undefined;
    }
  }

  private subagent(e: HostEvent): TurnChange | undefined {
    let sub = this.s.subagents.find((x) => x.taskId === e.taskId);
    if (!sub) {
      sub = { taskId: e.taskId, text: "", tools: [], done: false };
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
