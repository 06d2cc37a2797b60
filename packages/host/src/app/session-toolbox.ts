// The tools of one session turn: the registry's (with this session's approval memory, processes
// and skills), the agent's own (todo, memory, session search, delegation), and receipts around
// every tool with an effect, kept in state.db or with the session's memory or JSONL log.
import {
  type AgentEventName,
  type AgentEvents,
  type FrontEnd,
  MemoryFiles,
  type ReceiptStore,
  RegistryToolBox,
  type ResilientModelClient,
  type TodoList,
  type ToolBox,
  withAgentTools,
  withReceipts,
} from "@iris/agent";
import type { Store } from "@iris/store";
import type { ApprovalMemory, Menu, SkillLibrary, Workspace } from "@iris/tools";
import type { Profile } from "../config/index.js";
import { type ChildSlots, type DelegatePort, makeDelegate } from "./delegate.js";
import type { EventIdentity } from "./events.js";
import type { ToolSetup } from "./tools-setup.js";

export interface SessionToolBoxOptions {
  profile: Profile;
  store: Store;
  cwd: string;
  tools: ToolSetup;
  menu: Menu;
  frontEnd: FrontEnd;
  events: AgentEvents;
  workspace: Workspace;
  skills: SkillLibrary;
  approvals: ApprovalMemory;
  todos: TodoList;
  /** The conversation's id now (session search leaves it out). */
  sessionId: string;
  model: ResilientModelClient;
  slots: ChildSlots;
  receipts: ReceiptStore;
  /** The conversation's log when it is not in the store: subagents are kept in memory too. */
  detached: DelegatePort["detached"];
  forward(name: AgentEventName, payload: unknown, identity: Omit<EventIdentity, "sessionId">): void;
}

export function sessionToolBox(o: SessionToolBoxOptions): ToolBox {
  const { profile, store, tools } = o;
  const registryBox = new RegistryToolBox({
    registry: tools.registry,
    menu: o.menu,
    policy: tools.policy,
    frontEnd: o.frontEnd,
    events: o.events,
    workspace: o.workspace,
    skills: o.skills,
    approvalMemory: o.approvals,
  });
  const memory = profile.config.memory;
  const agentBox = withAgentTools(registryBox, {
    todos: o.todos,
    ...(memory.enabled
      ? {
          memory: new MemoryFiles(
            { memory: profile.home.paths.memory, user: profile.home.paths.user },
            { memory: memory.memory_char_limit, user: memory.user_char_limit },
          ),
        }
      : {}),
    searchSessions: (query, limit) =>
      store
        .search(query, { limit, excludeSessionId: o.sessionId })
        .map((h) => ({ sessionId: h.sessionId, snippet: h.snippet })),
    delegate: makeDelegate({
      port: {
        profile,
        store,
        cwd: o.cwd,
        registry: tools.registry,
        policy: tools.policy,
        events: o.events,
        workspace: o.workspace,
        ...(o.detached ? { detached: o.detached } : {}),
        forward: o.forward,
      },
      model: o.model,
      frontEnd: o.frontEnd,
      approvals: o.approvals,
      // The session's own menu (plan mode's, a limited session's): a child never gets more.
      parentMenu: o.menu,
      slots: o.slots,
    }),
  });
  // Receipts live beside the node they belong to: in state.db, or with a memory or JSONL log.
  return withReceipts(agentBox, o.receipts, { events: o.events });
}
