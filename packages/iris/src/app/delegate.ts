// delegate_task (SPEC L10, S3): a fresh child agent with its own round budget, restricted
// toolsets, no context layer and the default identity. It inherits the parent's model route, and
// the parent's interrupt reaches it through the call's abort signal. Its conversation is a child
// session (parent_session_id), so it stays searchable and auditable.
import {
  Agent,
  buildSystemPrompt,
  type FrontEnd,
  gatherPromptInputs,
  RegistryToolBox,
  type ResilientModelClient,
  StoreConversation,
  TodoList,
  type ToolRunContext,
  withAgentTools,
  withReceipts,
} from "@iris/agent";
import { selectMenu } from "@iris/tools";
import type { SessionHost } from "./host.js";

const DEFAULT_CHILD_TOOLSETS = ["terminal", "file"];
/** Tools a child never gets: no recursion, nobody to ask, no shared memory writes. */
const CHILD_EXCLUDED = ["delegate_task", "clarify", "memory"];

export function makeDelegate(opts: { host: SessionHost; model: ResilientModelClient; frontEnd: FrontEnd }) {
  return async (
    args: { goal: string; context?: string | undefined; toolsets?: string[] | undefined },
    ctx: ToolRunContext,
  ): Promise<{ content: string; isError: boolean }> => {
    const { host, frontEnd } = opts;
    // Same route and fallback chain as the parent, cooldowns shared (SPEC L10, F2).
    const model = opts.model.spawn();
    const { profile, tools, store, cwd } = host.opts;
    const toolsets = args.toolsets?.length ? args.toolsets : DEFAULT_CHILD_TOOLSETS;
    const menu = await selectMenu(tools.registry, {
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
    const agent = new Agent({
      log: new StoreConversation(store, child.id),
      model,
      // A child's side effects get receipts like the parent's (SPEC D4).
      tools: withReceipts(
        withAgentTools(
          new RegistryToolBox({
            registry: tools.registry,
            menu,
            policy: tools.policy,
            frontEnd,
            events: host.events,
          }),
          { todos: new TodoList() },
        ),
        store,
      ),
      systemPrompt,
      cwd,
      budgets: { maxRounds: profile.config.delegation.max_rounds },
    });
    const task = args.context ? `${args.goal}\n\nContext:\n${args.context}` : args.goal;
    const result = await agent.run(task, { signal: ctx.signal });
    store.endSession(child.id, result.reason);
    const ok = result.reason === "natural";
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
