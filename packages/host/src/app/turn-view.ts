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

export type TurnChange =
  | { kind: "text"; delta: string }
  | { kind: "reasoning"; delta: string }
  /** A failed attempt's partial text was withdrawn: `text` is what stands now. */
  | { kind: "reset"; text: string }
  | { kind: "tool"; phase: "before" | "progress" | "after"; call: ToolCallView }
  | { kind: "subagent"; subagent: SubagentView }
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

  get state(): Readonly<TurnViewState> {
    return this.s;
  }

  /** Folds one event in; what it changed, or undefined (nothing a front end shows). */
  apply(e: HostEvent): TurnChange | undefined {
    if (e.parentTaskId !== undefined) return this.subagent(e);
    switch (e.name) {
      case "step":
        this.textAtStep = this.s.text.length;
        return undefined;
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
        return { kind: "reset", text: this.s.text };
      case "tool_progress": {
        const call = track(this.s.tools, e.payload);
        return { kind: "tool", phase: e.payload.phase, call };
      }
      case "llm_call_ended":
        this.s.usage = sum(this.s.usage, e.payload.message.usage);
        return undefined;
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
    else if (e.name === "tool_progress") track(sub.tools, e.payload);
    else if (e.name === "turn_completed") sub.done = true;
    else return undefined;
    return { kind: "subagent", subagent: sub };
  }
}

type Progress = Extract<HostEvent, { name: "tool_progress" }>["payload"];

function track(tools: ToolCallView[], p: Progress): ToolCallView {
  let call = tools.find((t) => t.callId === p.callId);
  if (!call) {
    call = { callId: p.callId, name: p.name, text: toolCallText(p.name, p.preview), status: "running" };
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
