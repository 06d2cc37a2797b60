// The Agent of one message (cheap, made per message): everything expensive lives in the process
// and the session, which hand their parts in here.
import {
  Agent,
  type AgentEvents,
  type ClientTools,
  compactionExpander,
  type FrontEnd,
  makeShaper,
  NO_TOOLS,
  type ResilientModelClient,
  withClientTools,
} from "@iris/agent";
import type { Runtime } from "@iris/llm";
import type { Store } from "@iris/store";
import type { Profile } from "../config/index.js";
import type { ContextControl } from "./context-control.js";
import { reasoningFor } from "./reasoning.js";
import { modelInfoFor } from "./route.js";
import type { SessionLog } from "./session-log.js";
import { type SessionToolBoxOptions, sessionToolBox } from "./session-toolbox.js";
import { routeTraitsOf } from "./vision.js";

export interface AgentParts {
  runtime: Runtime;
  profile: Profile;
  store: Store;
  cwd: string;
  events: AgentEvents;
  frontEnd: FrontEnd;
  model: ResilientModelClient;
  log: SessionLog;
  context: ContextControl;
  /** The tool box's parts (the same profile, store, cwd, front end, events and model as above):
   * whole, since spreading them into another object was a cost of its own in every request. */
  box: SessionToolBoxOptions;
  clientTools?: ClientTools;
  /** The frozen prompt with the ephemeral one after it, now (a compression changes it). */
  systemPrompt: () => string;
  maxRounds?: number;
  newTaskId: () => string;
}

export function assembleAgent(p: AgentParts): Agent {
  const { profile, runtime, model, log } = p;
  const info = modelInfoFor(runtime.provider, runtime.model, profile.config).info;
  const ownBox = sessionToolBox(p.box);
  const box =
    p.clientTools === "none"
      ? NO_TOOLS
      : p.clientTools?.length
        ? withClientTools(ownBox, p.clientTools)
        : ownBox;
  const agentCfg = profile.config.agent;
  const systemPrompt = p.systemPrompt();
  const shape = makeShaper(model, routeTraitsOf(profile.config), systemPrompt, compactionExpander());
  return new Agent({
    shape,
    reasoningFor: (route) => reasoningFor(profile.config, route),
    log,
    model,
    tools: box,
    systemPrompt,
    // Agent-layer compression, `/context` and the H7 switch check (SPEC C1, C4, M3, H7).
    beforeModelCall: p.context.beforeModelCall(log, model),
    onContextOverflow: p.context.onContextOverflow(log),
    currentSystemPrompt: p.systemPrompt,
    cwd: p.cwd,
    events: p.events,
    frontEnd: p.frontEnd,
    newTaskId: p.newTaskId,
    maxOutputTokens: Math.min(info.maxOutput, 32_000),
    budgets: {
      maxRounds: p.maxRounds ?? agentCfg.max_rounds,
      ...(agentCfg.time_budget_seconds ? { timeBudgetMs: agentCfg.time_budget_seconds * 1000 } : {}),
      sessionBudgetMs: agentCfg.session_budget_seconds * 1000,
      ...(agentCfg.cost_budget_usd ? { costBudgetUsd: agentCfg.cost_budget_usd } : {}),
    },
  });
}
