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
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ExecuteGate,
  FileAccess,
  FileBefore,
  ToolEffect,
} from "@iris/tools";
import type { RouteInfo } from "./turn/types.js";

/**
 * The session's conversation: the active path and an append-only log. Every call is async: the
 * log may live in a database across the network (Postgres) as well as in this process.
 */
export interface ConversationLog {
  readonly sessionId: string;
  /** The active path, root first, as canonical messages. */
  history(): Promise<Message[]>;
  /** Appends one message after the active leaf, durably, and returns its node id. */
  append(message: Message): Promise<string>;
  recordUsage(row: UsageRow): Promise<void>;
  /** Spent so far in this session (USD), for the cost budget. */
  sessionCostUsd(): Promise<number>;
  /** Time the agent worked in this session before now, in ms (the session budget, SPEC L4). */
  sessionActiveMs?(): Promise<number>;
  /** A turn ended after `ms` of work: added to the session's active time. */
  recordTurnTime?(ms: number): Promise<void>;
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
  /**
   * A tool the API client runs itself (SPEC E3): its calls are not run here; the turn ends with
   * them unanswered (`client_tool_calls`) and the client's next request brings the results.
   */
  external?: boolean;
}

export interface ToolRunContext {
  signal: AbortSignal;
  taskId: string;
  sessionId: string;
  cwd: string;
  /** The call being run (a subagent's events name it: its front end folds them under the call). */
  callId?: string;
  /** The node id of the checkpointed assistant message carrying this call. */
  assistantNodeId: string;
  stepId: number;
  progress(message: string): void;
  /**
   * Whoever executes the call invokes this right before executing (after validation and approval)
   * and obeys its answer; the receipt wrapper supplies it (SPEC D4). `filesBefore` (the files the
   * call writes, as they are now) is kept with the receipt for `/rewind`.
   */
  beforeRun?(filesBefore?: FileBefore[]): Promise<ExecuteGate>;
  /**
   * For a call a tool makes itself (execute_code's inner calls): a receipt of its own, numbered
   * under this call's, so each inner side effect is receipted like a direct one. Absent: none.
   */
  innerReceipt?(name: string, argumentsJson: string): InnerReceipt;
  /** What the turn may still spend (null = no cost budget); a subagent's budget is capped by it. */
  costLeftUsd?: number | null;
  /** Adds spending made on the turn's behalf (a subagent's model calls) to the turn's cost. */
  addCost?(usd: number): void;
  /** Records a model call a tool made (the vision model): the turn's usage, cost and budget (F3). */
  recordModelCall?(message: AssistantMessage, costUsd: number, latencyMs: number): Promise<void>;
}

/** The receipt bracket around one inner call: gate before it runs, settle or fail after. */
export interface InnerReceipt {
  beforeRun(filesBefore?: FileBefore[]): Promise<ExecuteGate>;
  settle(result: { content: string; isError: boolean; uncertain?: true }): Promise<void>;
  fail(error: unknown): Promise<void>;
}

export interface ToolBox {
  specs(): ToolSpec[];
  traits(name: string): ToolTraits | undefined;
  /** `uncertain`: aborted and still running after the grace period; its outcome is unknown. */
  run(
    call: ToolCallPart,
    ctx: ToolRunContext,
  ): Promise<{
    content: string;
    isError: boolean;
    uncertain?: true;
    images?: { mediaType: string; data: string }[];
  }>;
}

/** A request without its model: the route supplies that. */
export type RouteRequest = Omit<LlmRequest, "model">;

/**
 * Builds and shapes the request for the route that will receive it (SPEC H4, F2). A client calls
 * it again on every attempt: a retry, each fallback and the return to the primary.
 */
export type RequestForRoute = (route: RouteInfo) => RouteRequest;

/** A ready request (sent as is to any route) or a builder called per attempt. */
export function requestFor(request: RouteRequest | RequestForRoute, route: RouteInfo): RouteRequest {
  return typeof request === "function" ? request(route) : request;
}

/** Streams one model call; `route()` names where it goes now (it may change on fallback). */
export interface ModelClient {
  route(): RouteInfo;
  call(
    request: RouteRequest | RequestForRoute,
    opts: {
      signal: AbortSignal;
      onEvent(e: StreamEvent): void;
      stepId: number;
      /** A fresh step id for a retry or fallback attempt inside this call (L6). */
      nextStepId?(): number;
      /** What is left of the turn's time budgets, in ms: the call ends by then, retries included. */
      timeLeftMs?: number;
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
  /** `signal` aborts when the turn ends: withdraw the question (its answer is then ignored). */
  approve?(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer>;
  /** `callId`: the clarify call asking (a front end keys its dialog to it). */
  clarify?(question: string, choices?: string[], signal?: AbortSignal, callId?: string): Promise<string>;
  /** Files through the front end (an editor's buffers over ACP); default the disk. */
  files?: FileAccess;
  /**
   * Before an offered tool's call is validated and approved (the user's pre_tool_use hooks): a
   * reason blocks the call, and the model gets it as the call's error.
   */
  beforeTool?(call: ToolCallPart, signal: AbortSignal): Promise<string | undefined>;
  /**
   * After an offered tool's call has its result, a blocked one's included (the user's
   * post_tool_use hooks). Awaited: the result goes to the model when it has finished.
   */
  afterTool?(
    call: ToolCallPart,
    result: { content: string; isError: boolean },
    signal: AbortSignal,
  ): Promise<void>;
}
