// delegate_task (SPEC L10, S3): a fresh child agent with its own round budget, restricted
// toolsets, no context layer and the default identity. It inherits the parent's model route, and
// the parent's interrupt reaches it through the call's abort signal. Its conversation is a child
// session (parent_session_id), so it stays searchable and auditable. Its progress (stream, tool
// progress, status) reaches the parent session's subscribers tagged with the child's task id.
import {
  Agent,
  type AgentEventName,
  AgentEvents,
  buildSystemPrompt,
  type FrontEnd,
  gatherPromptInputs,
  newTaskId,
  RegistryToolBox,
  type ResilientModelClient,
  StoreConversation,
  TodoList,
  type ToolRunContext,
  withAgentTools,
  withReceipts,
} from "@iris/agent";
import type { Store } from "@iris/store";
import { type ApprovalPolicy, selectMenu, type TerminalScope, type ToolRegistry } from "@iris/tools";
import type { Profile } from "../config/index.js";
import { type EventIdentity, FORWARDED_CHILD_EVENTS } from "./events.js";

const DEFAULT_CHILD_TOOLSETS = ["terminal", "file"];
/** Tools a child never gets: no recursion, nobody to ask, no shared memory writes. */
const CHILD_EXCLUDED = ["delegate_task", "clarify", "memory"];

/** What a delegation needs from the session that delegates (not the whole session). */
export interface DelegatePort {
  profile: Profile;
  store: Store;
  cwd: string;
  registry: ToolRegistry;
  /** The parent session's policy: an approval it remembers covers its children too. */
  policy: ApprovalPolicy;
  /** The parent's raw events (approval requests and grants of the child's tools show there). */
  events: AgentEvents;
  /** The parent session's processes and task directories. */
  terminal: TerminalScope;
  /** Passes a child's event (an AgentEvents name and its payload) to the parent's subscribers. */
  forward(name: AgentEventName, payload: unknown, identity: Omit<EventIdentity, "sessionId">): void;
}

export function makeDelegate(opts: { port: DelegatePort; model: ResilientModelClient; frontEnd: FrontEnd }) {
  return async (
    args: { goal: string; context?: string | undefined; toolsets?: string[] | undefined },
    ctx: ToolRunContext,
  ): Promise<{ content: string; isError: boolean }> => {
    const { port, frontEnd } = opts;
    // Same route and fallback chain as the parent, cooldowns shared (SPEC L10, F2).
    const model = opts.model.spawn();
    const { profile, store, cwd } = port;
    const toolsets = args.toolsets?.length ? args.toolsets : DEFAULT_CHILD_TOOLSETS;
    const menu = await selectMenu(port.registry, {
      platform: "delegate",
      config: { toolsets: { delegate: toolsets }, disabledTools: CHILD_EXCLUDED },
    });
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
    const child = store.createSession({
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
        port.forward(name, payload, { taskId: childTask, parentTaskId: ctx.taskId });
    });
    const agent = new Agent({
      log: new StoreConversation(store, child.id),
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
            terminal: port.terminal,
          }),
          { todos: new TodoList() },
        ),
        store,
      ),
      systemPrompt,
      cwd,
      events: childEvents,
      newTaskId: () => childTask,
      budgets: { maxRounds: profile.config.delegation.max_rounds },
    });
    const task = args.context ? `${args.goal}\n\nContext:\n${args.context}` : args.goal;
    const result = await agent.run(task, { signal: ctx.signal });
    port.terminal.cwds.clear(childTask);
    store.endSession(child.id, result.reason);
    const ok = result.reason === "natural" || result.reason === "forced_text";
    return {
      content: JSON.stringify({
        status: ok ? "completed" : result.reason,
        answer: result.text,
        rounds: result.rounds,
        child_session: child.id,
      }),
      isError: !ok,
    };
  };
}
