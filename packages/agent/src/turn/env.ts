// Everything one turn runs with, fixed when the Agent is made (per message).
import type { Message } from "@iris/llm";
import type { AgentEvents } from "../events.js";
import type { ConversationLog, FrontEnd, ModelClient, ToolBox } from "../ports.js";
import type { ConvergenceDetector } from "./convergence.js";
import type { RoundGuards } from "./guards.js";

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
  /** Shapes stored history for the current route (send-time shaping, SPEC H4–H6). */
  shape(messages: readonly Message[]): Message[];
  /** Runs before each model call: the context check (compression) plugs in here. */
  /** `signal` is the turn's: a compression (its summary call) stops at once when the turn is aborted. */
  beforeModelCall?(messages: Message[], signal: AbortSignal): Promise<Message[] | undefined>;
  now(): number;
  newTaskId(): string;
}
