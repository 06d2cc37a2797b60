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
  /** Runs before each model call: the context check (compression) plugs in here. */
  beforeModelCall?(messages: Message[]): Promise<Message[] | undefined>;
  now(): number;
  newTaskId(): string;
}
