// delegate_task (SPEC L10, S3): a fresh child agent with its own round budget, restricted
// toolsets, no context layer and the default identity. It inherits the parent's model route, and
// the parent's interrupt reaches it through the call's abort signal. Its conversation is a child
// session (parent_session_id), so it stays searchable and auditable.
//
// A child stays inside its parent: its tools are the requested toolsets intersected
// with the parent's menu; its spending counts against the parent's turn and session budgets;
// `delegation.max_concurrent_children` children run at once per session; nesting stops at
// `delegation.max_depth`; and its fallbacks do not re-point the parent's context control.
// Its progress (stream, tool progress, status) reaches the parent session's subscribers tagged
// with the child's task id and the parent's.
import {
  Agent,
  type AgentEventName,
  AgentEvents,
  buildSystemPrompt,
  type FrontEnd,
  gatherPromptInputs,
  MemoryConversation,
  newTaskId,
  RegistryToolBox,
  type ResilientModelClient,
  StoreConversation,
  TodoList,
  type ToolRunContext,
  type UsageRow,
  withAgentTools,
  withReceipts,
} from "@iris/agent";
import type { Store } from "@iris/store";
import {
  type ApprovalMemory,
  type ApprovalPolicy,
  type Menu,
  selectMenu,
  type ToolRegistry,
  type Workspace,
} from "@iris/tools";
import type { Profile } from "../config/index.js";
import { type EventIdentity, FORWARDED_CHILD_EVENTS } from "./events.js";

const DEFAULT_CHILD_TOOLSETS = ["terminal", "file"];
/** Tools a child never gets: nobody to ask, no shared memory writes. */
const CHILD_EXCLUDED = ["clarify", "memory"];

/** Children running now, per parent session (shared by every depth of that session). */
export class ChildSlots {
  private running = 0;
  constructor(readonly max: number) {}
  take(): boolean {
    if (this.running >= this.max) return false;
    this.running++;
    return true;
  }
  give(): void {
    this.running = Math.max(0, this.running - 1);
  }
}

/** What a delegation needs from the session that delegates (not the whole session). */
export interface DelegatePort {
  profile: Profile;
  store: Store;
  cwd: string;
  registry: ToolRegistry;
  policy: ApprovalPolicy;
  /** The parent's raw events (approval requests and grants of the child's tools show there). */
  events: AgentEvents;
  /** The parent session's processes and task directories. */
  workspace: Workspace;
  /**
   * The parent's conversation is not in the store (a memory or JSONL log): its children live in
   * memory too, so nothing of it lands in state.db; their usage rows go into the parent's log
   * (F3: every call counts, in `iris batch`'s rows as well).
   */
  detached?: { recordUsage(row: UsageRow): void };
  /** Passes a child's event (an AgentEvents name and its payload) to the parent's subscribers. */
  forward(name: AgentEventName, payload: unknown, identity: Omit<EventIdentity, "sessionId">): void;
}

export interface DelegateOptions {
  port: DelegatePort;
  model: ResilientModelClient;
  frontEnd: FrontEnd;
  /** The parent session's approval memory: a child's approvals are the session's. */
  approvals: ApprovalMemory;
  /** What the parent may offer: a child never gets a tool its parent was not given. */
  parentMenu: Menu;
  slots: ChildSlots;
  /** 1 for a child of the session's agent, 2 for a grandchild, … */
  depth?: number;
}

type Result = { content: string; isError: boolean };
const refuse = (message: string): Result => ({ content: JSON.stringify({ error: message }), isError: true });

export function makeDelegate(opts: DelegateOptions) {
  return async (
    args: { goal: string; context?: string | undefined; toolsets?: string[] | undefined },
    ctx: ToolRunContext,
  ): Promise<Result> => {
    const { port, frontEnd } = opts;
    const depth = opts.depth ?? 1;
    const { profile, store, cwd } = port;
    const cfg = profile.config.delegation;
    if (ctx.costLeftUsd !== undefined && ctx.costLeftUsd !== null && ctx.costLeftUsd <= 0)
      return refuse("the cost budget is spent; no subagent can start");
    if (!opts.slots.take())
      return refuse(
        `delegation.max_concurrent_children (${opts.slots.max}) subagents are already running; ` +
          "wait for one to finish, then delegate again",
      );
    try {
      const menu = await childMenu(opts, args.toolsets, depth < cfg.max_depth);
      // Same route and fallback chain as the parent, cooldowns shared (SPEC L10, F2), but its
      // route changes are its own: the parent's context thresholds stay on the parent's route.
      const model = opts.model.spawn({ onRouteChange: undefined });
      const route = model.route();
      const systemPrompt = buildSystemPrompt(
        gatherPromptInputs({
          homePaths: profile.home.paths,
          cwd,
          toolNames: menu.specs.map((s) => s.name),
          model: route.model,
          provider: route.provider,
          now: new Date(),
          subagent: true,
        }),
      );
      const memory = port.detached ? new MemoryConversation() : undefined;
      const child = memory
        ? { id: memory.sessionId }
        : await store.createSession({
            source: "delegate",
            cwd,
            parentSessionId: ctx.sessionId,
            systemPrompt,
            model: route.model,
            provider: route.provider,
            title: args.goal.slice(0, 80),
          });
      const childTask = newTaskId();
      const childEvents = new AgentEvents();
      childEvents.onAny((name, payload) => {
        if (FORWARDED_CHILD_EVENTS.has(name))
          port.forward(name, payload, {
            taskId: childTask,
            parentTaskId: ctx.taskId,
            ...(ctx.callId !== undefined ? { parentCallId: ctx.callId } : {}),
          });
      });
      const agent = new Agent({
        log: memory ?? (await StoreConversation.open(store, child.id)),
        model,
        // A child's side effects get receipts like the parent's (SPEC D4).
        tools: withReceipts(
          withAgentTools(
            new RegistryToolBox({
              registry: port.registry,
              menu,
              policy: port.policy,
              frontEnd,
              events: port.events,
              approvalMemory: opts.approvals,
              workspace: port.workspace,
            }),
            {
              todos: new TodoList(),
              delegate: makeDelegate({ ...opts, parentMenu: menu, depth: depth + 1 }),
            },
          ),
          memory?.receipts ?? store,
        ),
        systemPrompt,
        cwd,
        events: childEvents,
        newTaskId: () => childTask,
        budgets: {
          maxRounds: cfg.max_rounds,
          ...(typeof ctx.costLeftUsd === "number" ? { costBudgetUsd: ctx.costLeftUsd } : {}),
        },
      });
      const task = args.context ? `${args.goal}\n\nContext:\n${args.context}` : args.goal;
      const result = await agent.run(task, { signal: ctx.signal });
      port.workspace.cwds.clear(childTask);
      ctx.addCost?.(result.costUsd);
      if (!memory) await store.endSession(child.id, result.reason);
      else for (const row of memory.usage) await port.detached?.recordUsage(row);
      const ok = result.reason === "natural";
      return {
        content: JSON.stringify({
          status: ok ? "completed" : result.reason,
          answer: result.text,
          rounds: result.rounds,
          cost_usd: result.costUsd,
          child_session: child.id,
        }),
        isError: !ok,
      };
    } finally {
      opts.slots.give();
    }
  };
}

/** The requested toolsets (default terminal + file), cut down to what the parent was offered. */
async function childMenu(
  opts: DelegateOptions,
  toolsets: string[] | undefined,
  mayDelegate: boolean,
): Promise<Menu> {
  const selected = await selectMenu(opts.port.registry, {
    platform: "delegate",
    config: {
      toolsets: { delegate: toolsets?.length ? toolsets : DEFAULT_CHILD_TOOLSETS },
      disabledTools: mayDelegate ? CHILD_EXCLUDED : [...CHILD_EXCLUDED, "delegate_task"],
    },
  });
  const offered = new Set(opts.parentMenu.tools.map((t) => t.name));
  const keep = (name: string) => offered.has(name);
  return {
    tools: selected.tools.filter((t) => keep(t.name)),
    specs: selected.specs.filter((s) => keep(s.name)),
    unavailable: selected.unavailable,
  };
}
