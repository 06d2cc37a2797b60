// What the turn needs from the world, as small interfaces. The real implementations sit beside
// them (session/store-conversation.ts over @iris/store, tools/toolbox.ts over @iris/tools,
// model/llm-client.ts over @iris/llm); the loop sees only these.
import type {
  AssistantMessage,
  LlmError,
  LlmRequest,
  Message,
  StreamEvent,
  ToolCallPart,
  ToolSpec,
  Usage,
} from "@iris/llm";
import type { ApprovalAnswer, ApprovalRequest, ExecuteGate, FileAccess, ToolEffect } from "@iris/tools";
import type { RouteInfo } from "./turn/types.js";

/** The session's conversation: the active path and an append-only log. */
export interface ConversationLog {
  readonly sessionId: string;
  /** The active path, root first, as canonical messages. */
  history(): Message[];
  /** Appends one message after the active leaf, durably, and returns its node id. */
  append(message: Message): string;
  recordUsage(row: UsageRow): void;
  /** Spent so far in this session (USD), for the cost budget. */
  sessionCostUsd(): number;
}

export interface UsageRow {
  taskId: string;
  provider: string;
  model: string;
  usage: Usage;
  costUsd: number;
  latencyMs: number;
  /** ok: the reply was used; discarded: billed but thrown away (an empty reply that was retried). */
  status: "ok" | "discarded";
}

export interface ToolTraits {
  effect: ToolEffect;
  parallelSafe: boolean;
  interactive: boolean;
}

export interface ToolRunContext {
  signal: AbortSignal;
  taskId: string;
  sessionId: string;
  cwd: string;
  /** The node id of the checkpointed assistant message carrying this call. */
  assistantNodeId: string;
  stepId: number;
  progress(message: string): void;
  /**
   * Whoever executes the call invokes this right before executing (after validation and approval)
   * and obeys its answer; the receipt wrapper supplies it (SPEC D4).
   */
  beforeRun?(): Promise<ExecuteGate>;
}

export interface ToolBox {
  specs(): ToolSpec[];
  traits(name: string): ToolTraits | undefined;
  run(call: ToolCallPart, ctx: ToolRunContext): Promise<{ content: string; isError: boolean }>;
}

/** Streams one model call; `route()` names where it goes now (it may change on fallback). */
export interface ModelClient {
  route(): RouteInfo;
  call(
    request: Omit<LlmRequest, "model">,
    opts: {
      signal: AbortSignal;
      onEvent(e: StreamEvent): void;
      stepId: number;
      /** A fresh step id for a retry or fallback attempt inside this call (L6). */
      nextStepId?(): number;
      /** A reply that was billed but not used (empty, then retried): it still counts (F3). */
      onDiscarded?(reply: { message: AssistantMessage; latencyMs: number; costUsd: number }): void;
    },
  ): Promise<
    | { ok: true; message: AssistantMessage; latencyMs: number; costUsd: number }
    | { ok: false; error: LlmError }
  >;
}

/** What a front end supplies for the blocking interactions. */
export interface FrontEnd {
  approve?(request: ApprovalRequest): Promise<ApprovalAnswer>;
  clarify?(question: string, choices?: string[]): Promise<string>;
  /** Files through the front end (an editor's buffers over ACP); default the disk. */
  files?: FileAccess;
}
