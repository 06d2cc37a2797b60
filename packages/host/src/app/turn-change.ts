// What one event changed in a turn as a front end renders it (turn-view.ts folds the events).
// Every front end reads these, never the raw events beside them: the CLI's progress lines,
// `--verbose` log and stream-json lines, ACP's updates, serve's chunks, the gateway's drafts.
import type { Usage } from "@iris/llm";

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
  /** How long it ran, once it ended (the agent's own clock). */
  durationMs?: number;
}

export interface SubagentView {
  taskId: string;
  /** The parent's task that delegated. */
  parentTaskId: string;
  /** The parent's tool call (delegate_task) this subagent runs under, when known. */
  parentCallId?: string;
  text: string;
  tools: ToolCallView[];
  done: boolean;
}

export type ToolPhase = "generated" | "before" | "progress" | "after";

export type TurnChange =
  | { kind: "text"; delta: string }
  | { kind: "reasoning"; delta: string }
  /** The model is working on a reply (true) or has answered (false). */
  | { kind: "thinking"; active: boolean }
  /** A model call (step) begins; `round` counts the turn's tool rounds. */
  | { kind: "step"; stepId: number; round: number }
  /**
   * Waiting for the model: 0 as a call starts (then `stepId` names it), then the seconds it has
   * been silent.
   */
  | { kind: "waiting"; seconds: number; provider: string; model: string; stepId?: number }
  /** Step `stepId` failed and is retried: its partial text was withdrawn, `text` is what stands now. */
  | { kind: "reset"; text: string; stepId: number; reason: string }
  /**
   * `generated`: the model asked for the call (not run yet); `after`: its result, as the model
   * gets it. `preview` (before) is the raw argument preview; `message` this phase's own message.
   */
  | {
      kind: "tool";
      phase: ToolPhase;
      call: ToolCallView;
      preview?: string;
      message?: string;
      result?: string;
      isError?: boolean;
    }
  /** A subagent's activity; `tool` when a call of its own moved. */
  | { kind: "subagent"; subagent: SubagentView; tool?: { phase: ToolPhase; call: ToolCallView } }
  /** One model call's usage, and the turn's so far. */
  | {
      kind: "usage";
      call: Usage;
      total: Usage;
      stepId: number;
      latencyMs: number;
      stopReason: string;
    }
  /** A model call failed (it may be retried or fall back). */
  | { kind: "call_failed"; stepId: number; errorKind: string; message: string }
  | { kind: "retry"; stepId: number; attempt: number; delayMs: number; errorKind: string }
  /** The route moved: a fallback taken or skipped, or the preferred route back after its cooldown. */
  | { kind: "route"; phase: "fallback"; from: string; to: string; reason: string }
  | { kind: "route"; phase: "skipped"; route: string; reason: string }
  | { kind: "route"; phase: "restored"; from: string; to: string }
  | { kind: "approval"; phase: "asked" | "denied"; tool: string; command: string; reason: string }
  | { kind: "approval"; phase: "granted"; tool: string; command: string; scope: string }
  | { kind: "context"; phase: "critical"; promptTokens: number; limit: number }
  | { kind: "context"; phase: "action"; action: string; detail: string }
  | { kind: "notice"; level: "info" | "warn" | "error"; message: string }
  | { kind: "ended"; reason: string; taskId: string; rounds: number };
