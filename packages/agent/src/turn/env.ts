// Everything one turn runs with, fixed when the Agent is made (per message).
import type { LlmRequest, Message } from "@iris/llm";
import type { AgentEvents } from "../events.js";
import type { ConversationLog, FrontEnd, ModelClient, ToolBox } from "../ports.js";
import type { ConvergenceDetector } from "./convergence.js";
import type { RoundGuards } from "./guards.js";
import type { RouteInfo } from "./types.js";

export interface TurnEnv {
  log: ConversationLog;
  model: ModelClient;
  tools: ToolBox;
  events: AgentEvents;
  guards: RoundGuards;
  convergence: ConvergenceDetector;
  frontEnd: FrontEnd;
  /** The frozen system prompt of the session (SPEC S2). */
  systemPrompt: string;
  cwd: string;
  maxOutputTokens?: number;
  /** Shapes stored history for the route of this attempt (send-time shaping, SPEC H4–H6). */
  shape(messages: readonly Message[], route: RouteInfo): Message[];
  /** What to ask of a route's reasoning (encrypted reasoning, extended thinking), per attempt. */
  reasoningFor?(route: RouteInfo): LlmRequest["reasoning"];
  /**
   * Runs before each model call: the context check (compression) plugs in here. It returns the
   * history to continue with (undefined: unchanged), or `exhausted` when no request that fits the
   * window can be built: the turn then ends `context_exhausted` with that text. `signal` is the
   * turn's: a compression (its summary call) stops at once when the turn is aborted.
   */
  beforeModelCall?(
    messages: Message[],
    signal: AbortSignal,
  ): Promise<Message[] | undefined | { exhausted: string }>;
  /**
   * The provider answered context_length_exceeded although the estimate said the request fits:
   * compress now (harder than the trigger asks) and return the history to resend once, or
   * undefined when nothing could be saved.
   */
  onContextOverflow?(messages: Message[], signal: AbortSignal): Promise<Message[] | undefined>;
  now(): number;
  newTaskId(): string;
}
