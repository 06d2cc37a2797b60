// One conversation of a process (ARCHITECTURE.md "Process scope and session scope"): its id (which
// follows splits), route and model client, frozen prompt, context control, todo list, approval
// memory, background processes and per-task directories, and its own events tagged with its id.
// A fresh Agent per message (SPEC S2: the prompt is built once per session and reused byte for
// byte by every Agent and on resume). close() releases everything it holds, never the store.
import { join } from "node:path";
import {
  Agent,
  AgentEvents,
  buildSystemPrompt,
  compactionExpander,
  type FrontEnd,
  gatherPromptInputs,
  LlmModelClient,
  MemoryFiles,
  makeShaper,
  newTaskId,
  parseFallbackProviders,
  RegistryToolBox,
  type RepairedCall,
  ResilientModelClient,
  repairInterruptedCalls,
  resolverFromConfig,
  StoreConversation,
  TodoList,
  type TurnResult,
  withAgentTools,
  withReceipts,
} from "@iris/agent";
import { estimateCost, type Runtime, type UserMessage } from "@iris/llm";
import type { SessionRow, Store } from "@iris/store";
import {
  ApprovalMemory,
  closeTerminalScope,
  type Menu,
  newTerminalScope,
  SkillLibrary,
  type TerminalScope,
} from "@iris/tools";
import { loadDotenv, mergeEnv, type Profile } from "../config/index.js";
import { ContextControl } from "./context-control.js";
import { splitModelSpec } from "./context-report.js";
import { ChildSlots, makeDelegate } from "./delegate.js";
import type { EventIdentity, HostEvent, HostEventListener, HostEventMap } from "./events.js";
import { EventFanout } from "./events.js";
import { FollowingConversation } from "./following-log.js";
import { reasoningFor } from "./reasoning.js";
import { modelInfoFor, type RouteFlags, resolveMainRoute, routingConfigOf } from "./route.js";
import { followMenu, withoutEmptySkills } from "./session-menu.js";
import type { SessionParent } from "./session-parent.js";
import { SessionPrompts } from "./session-prompts.js";
import type { ToolSetup } from "./tools-setup.js";

export interface SessionOptions {
  /** The process that owns the session (events, cooldowns, logger). */
  parent: SessionParent;
  profile: Profile;
  runtime: Runtime;
  store: Store;
  /** The process's registry and menu, with this session's own approval policy (its memory). */
  tools: ToolSetup;
  /** cli, gateway:telegram, acp, api, batch, cron, … */
  source: string;
  cwd: string;
  maxRounds?: number;
  route?: RouteFlags;
  /** `--system-prompt` replaces the built prompt, `--append-system-prompt` adds to it. */
  promptEdits?: { replace?: string; append?: string };
}

export class Session {
  /** Raw agent events of this session's turns (what the CLI renders). */
  readonly events = new AgentEvents();
  /** This session's background processes and per-task directories. */
  readonly terminal: TerminalScope = newTerminalScope();
  private readonly tagged = new EventFanout();
  private readonly prompts = new SessionPrompts();
  private running:
    | { agent: Agent; controller: AbortController; taskId: string; done?: Promise<unknown> }
    | undefined;
  private taskId = "";
  private closed = false;
  private current: SessionRow | undefined;
  private todos = new TodoList();
  /** "For this session" approvals: a new memory with every new or resumed session. */
  private approvals = new ApprovalMemory();
  /** Subagents running now for this session (delegation.max_concurrent_children). */
  private childSlots: ChildSlots;
  private currentRuntime: Runtime;
  private model: ResilientModelClient | undefined;
  private contextCtl: ContextControl | undefined;
  private skillLibrary: SkillLibrary | undefined;
  private menu: Menu | undefined;
  /** Calls a crash left open, closed on resume (SPEC D4); told to the user by the next Agent. */
  private repairNotices: RepairedCall[] = [];

  constructor(readonly opts: SessionOptions) {
    this.currentRuntime = opts.runtime;
    this.childSlots = new ChildSlots(opts.profile.config.delegation.max_concurrent_children);
    // Every raw event goes out again tagged with this session and the running task.
    this.events.onAny((name, payload) => this.tag(name, payload, { taskId: this.taskId }));
  }

  /** The conversation's id now (it changes when compression splits the session). */
  get id(): string {
    return this.session.id;
  }

  /** This session's events, tagged with their identity (subagents' included). */
  subscribe(fn: HostEventListener): () => void {
    return this.tagged.subscribe(fn);
  }

  /** Tags an event with this session's id and passes it to its subscribers and the process's. */
  emitTagged<K extends keyof HostEventMap>(
    name: K,
    payload: HostEventMap[K],
    identity: Omit<EventIdentity, "sessionId">,
  ): void {
    this.tag(name, payload, identity);
  }

  private tag(name: keyof HostEventMap, payload: unknown, identity: Omit<EventIdentity, "sessionId">): void {
    // The name and payload come from one typed map (emitTagged, or an AgentEvents listener).
    const event = { sessionId: this.current?.id ?? "", ...identity, name, payload } as HostEvent;
    this.tagged.emit(event);
    this.opts.parent.events.emit(event);
  }

  get runtime(): Runtime {
    return this.currentRuntime;
  }
  get store(): Store {
    return this.opts.store;
  }
  get session(): SessionRow {
    if (!this.current) throw new Error("no session started");
    return this.current;
  }

  /** A new session with a freshly built, then frozen, system prompt. */
  startSession(): SessionRow {
    const { runtime } = this;
    const { source, store, cwd } = this.opts;
    this.skillLibrary = undefined; // a new session reads the skills afresh (S2)
    this.menu = undefined; // and takes the menu as it is now
    const systemPrompt = this.buildPrompt();
    this.current = store.createSession({
      source,
      cwd,
      systemPrompt,
      model: runtime.model,
      provider: runtime.provider,
    });
    this.todos = new TodoList();
    this.approvals = new ApprovalMemory();
    return this.current;
  }

  /**
   * One user message as one Agent turn. Without a front end of its own the session asks through
   * events: `approval_requested` / `clarify_requested`, answered by answerApproval / answerClarify.
   */
  async send(
    input: string | UserMessage,
    opts: { frontEnd?: FrontEnd; signal?: AbortSignal } = {},
  ): Promise<TurnResult> {
    if (this.closed) throw new Error("the session is closed");
    if (this.running) throw new Error("a turn is already running in this session; use inject()");
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const taskId = newTaskId();
    const emit = this.emitTagged.bind(this);
    const agent = this.newAgent(opts.frontEnd ?? this.prompts.frontEnd(emit, () => taskId), () => taskId);
    const running: NonNullable<Session["running"]> = { agent, controller, taskId };
    this.running = running;
    this.taskId = taskId;
    try {
      const done = agent.run(input, { signal: controller.signal });
      running.done = done;
      return await done;
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
      this.running = undefined;
      // A task's `cd` ends with the task; the session's processes live on until close().
      this.terminal.cwds.clear(taskId);
      this.prompts.cancelTask(taskId);
    }
  }

  /** A message that arrives while a turn runs: sent after the current round (SPEC L9). */
  inject(text: string): boolean {
    return this.running?.agent.inject({ role: "user", content: text }) ?? false;
  }

  /** Stops the running turn (the Agent ends it with reason `interrupted`). */
  interrupt(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    return true;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** The answer to an `approval_requested` event; false when nothing waits under that id. */
  answerApproval(requestId: string, answer: "once" | "session" | "always" | "deny"): boolean {
    return this.prompts.answerApproval(requestId, answer);
  }

  /** The answer to a `clarify_requested` event; false when nothing waits under that id. */
  answerClarify(requestId: string, answer: string): boolean {
    return this.prompts.answerClarify(requestId, answer);
  }

  /**
   * The skills of this session, read once (SPEC S2): a skill added or edited while it runs
   * shows in the next session's prompt and list.
   */
  get skills(): SkillLibrary {
    this.skillLibrary ??= new SkillLibrary(
      { profile: this.opts.profile.home.paths.skills, project: join(this.opts.cwd, ".iris", "skills") },
      this.opts.source.split(":")[0],
    );
    return this.skillLibrary;
  }

  /** The menu for the next turn (the rule is in session-menu.ts). */
  private menuForTurn(): Menu {
    const { tools } = this.opts;
    const live = tools.liveMenu?.() ?? tools.menu;
    this.menu = withoutEmptySkills(
      this.menu ? followMenu(this.menu, live, tools.registry) : live,
      this.skills,
    );
    return this.menu;
  }

  private buildPrompt(): string {
    const edits = this.opts.promptEdits;
    const built = edits?.replace ?? this.buildDefaultPrompt();
    return edits?.append ? `${built}\n\n${edits.append}` : built;
  }

  private buildDefaultPrompt(): string {
    const { runtime } = this;
    const { profile, cwd } = this.opts;
    const menu = this.menu ?? this.menuForTurn();
    return buildSystemPrompt(
      gatherPromptInputs({
        homePaths: profile.home.paths,
        cwd,
        toolNames: menu.specs.map((s) => s.name),
        ...(menu.specs.some((s) => s.name === "skill_view") ? { skills: this.skills.skills } : {}),
        model: runtime.model,
        provider: runtime.provider,
        now: new Date(),
        memoryEnabled: profile.config.memory.enabled,
        memoryLimits: {
          memory: profile.config.memory.memory_char_limit,
          user: profile.config.memory.user_char_limit,
        },
      }),
    );
  }

  /**
   * An explicit model switch (SPEC S2, H7): re-resolve the route, rebuild the frozen prompt for
   * this session, and warn when the switch costs the prompt cache of a long history.
   * `spec` is "MODEL" (same provider) or "PROVIDER/MODEL".
   */
  switchModel(spec: string): { ok: true; warnings: string[] } | { ok: false; error: string } {
    const { profile, store } = this.opts;
    const { provider, model } = splitModelSpec(spec, profile.config, this.runtime.provider);
    // The same provider keeps the endpoint and wire format given on the command line.
    const flags = provider === this.runtime.provider ? this.opts.route : undefined;
    const resolved = resolveMainRoute(
      {
        provider,
        model,
        ...(flags?.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(flags?.apiMode ? { apiMode: flags.apiMode } : {}),
      },
      profile.config,
      profile.env,
    );
    if (!resolved.ok) return { ok: false, error: resolved.error };
    const warnings: string[] = [];
    if (this.current) warnings.push(...this.context.switchRisks());
    this.currentRuntime = resolved.runtime;
    this.model = undefined;
    this.contextCtl?.routeChanged(undefined); // thresholds follow the new route (SPEC M2)
    if (this.current) {
      store.setSystemPrompt(this.current.id, this.buildPrompt());
      store.setSessionModel(this.current.id, resolved.runtime.model, resolved.runtime.provider);
      this.current = store.getSession(this.current.id);
    }
    return { ok: true, warnings: [...warnings, ...resolved.notes] };
  }

  /** Continue a stored session; its frozen prompt is reused as stored. */
  resumeSession(id: string): SessionRow | undefined {
    const row = this.opts.store.findSession(id) ?? this.findByPrefix(id);
    if (!row) return undefined;
    this.current = row;
    // Before anything reads the history: close calls a killed process left without results.
    this.repairNotices = repairInterruptedCalls(this.opts.store, row.id).repaired;
    this.todos = TodoList.fromHistory(new StoreConversation(this.opts.store, row.id).history());
    this.approvals = new ApprovalMemory();
    return row;
  }

  private findByPrefix(prefix: string): SessionRow | undefined {
    if (prefix.length < 4) return undefined;
    const hits = this.opts.store.listSessions({ limit: 1000 }).filter((s) => s.id.startsWith(prefix));
    return hits.length === 1 ? hits[0] : undefined;
  }

  /**
   * One resilient client per host and route: its cooldowns outlive a turn, so the next turn goes
   * back to the primary once the primary's cooldown has ended (SPEC U4).
   */
  private modelClient(): ResilientModelClient {
    this.model ??= this.resilientClient(this.runtime, (rt) => this.context.routeChanged(rt));
    return this.model;
  }

  /**
   * The client of smart approval mode's judge (T4): `approvals.judge_model`, or the main route,
   * with the fallback chain; its route changes are its own (the context control is left alone).
   */
  judgeModel(): ResilientModelClient {
    const { profile } = this.opts;
    const spec = profile.config.approvals.judge_model;
    if (!spec) return this.modelClient().spawn({ onRouteChange: undefined });
    const resolved = resolveMainRoute(
      splitModelSpec(spec, profile.config, this.runtime.provider),
      profile.config,
      profile.env,
    );
    if (!resolved.ok) throw new Error(`approvals.judge_model ${spec} cannot be used: ${resolved.error}`);
    return this.resilientClient(resolved.runtime, undefined);
  }

  private resilientClient(
    primary: Runtime,
    onRouteChange: ((rt: Runtime) => void) | undefined,
  ): ResilientModelClient {
    const { profile } = this.opts;
    const config = profile.config;
    const fallbacks = parseFallbackProviders(config.fallback_providers);
    return new ResilientModelClient({
      primary,
      fallbacks: fallbacks.ok ? fallbacks.routes : [],
      // Credentials are read again when a fallback activates (SPEC F2): a key rotated in .env
      // since start, or a .env that became unreadable, shows at that moment, not at restart.
      resolve: resolverFromConfig(routingConfigOf(config), () => freshEnv(profile)),
      makeClient: (rt) =>
        new LlmModelClient(rt, {
          costOf: (u) => estimateCost(u, modelInfoFor(rt.provider, rt.model, config).info),
        }),
      events: this.events,
      ...(onRouteChange ? { onRouteChange } : {}),
      // Cooldowns are the process's, kept in the store: a route that failed for one session is
      // passed over by every session, and by the next process (SPEC U4).
      cooldowns: this.opts.parent.cooldowns,
    });
  }

  /** Made per message (cheap): everything expensive lives in the process and the session. */
  newAgent(frontEnd: FrontEnd = {}, taskId?: () => string): Agent {
    if (this.closed) throw new Error("the session is closed");
    const { runtime } = this;
    const { profile, store, tools, cwd } = this.opts;
    const session = this.session;
    for (const r of this.repairNotices.splice(0))
      this.events.emit("status", { level: r.outcome === "uncertain" ? "warn" : "info", message: r.message });
    const info = modelInfoFor(runtime.provider, runtime.model, profile.config).info;
    const model = this.modelClient();
    const log = new FollowingConversation(store, session.id);
    const registryBox = new RegistryToolBox({
      registry: tools.registry,
      menu: this.menuForTurn(),
      policy: tools.policy,
      frontEnd,
      events: this.events,
      terminal: this.terminal,
      skills: this.skills,
      approvalMemory: this.approvals,
    });
    const agentCfg = profile.config.agent;
    const agentBox = withAgentTools(registryBox, {
      todos: this.todos,
      ...(profile.config.memory.enabled
        ? {
            memory: new MemoryFiles(
              { memory: profile.home.paths.memory, user: profile.home.paths.user },
              {
                memory: profile.config.memory.memory_char_limit,
                user: profile.config.memory.user_char_limit,
              },
            ),
          }
        : {}),
      searchSessions: (query, limit) =>
        store
          .search(query, { limit, excludeSessionId: session.id })
          .map((h) => ({ sessionId: h.sessionId, snippet: h.snippet })),
      delegate: makeDelegate({
        port: {
          profile,
          store,
          cwd,
          registry: tools.registry,
          policy: tools.policy,
          events: this.events,
          terminal: this.terminal,
          forward: (name, payload, identity) => this.tag(name, payload, identity),
        },
        model,
        frontEnd,
        approvals: this.approvals,
        parentMenu: tools.menu,
        slots: this.childSlots,
      }),
    });
    const box = withReceipts(agentBox, store, { events: this.events });
    const shape = makeShaper(
      model,
      (provider, name) => {
        const found = modelInfoFor(provider, name, profile.config).info;
        return { contextWindow: found.contextWindow, vision: found.vision };
      },
      session.systemPrompt ?? "",
      compactionExpander(store),
    );
    return new Agent({
      shape,
      reasoningFor: (route) => reasoningFor(profile.config, route),
      log,
      model,
      tools: box,
      systemPrompt: session.systemPrompt ?? "",
      ...this.compressionHooks(log, model),
      cwd,
      events: this.events,
      frontEnd,
      // The task id tags this session's events while the turn runs.
      newTaskId: () => {
        // The previous turn has ended (one turn at a time): its `cd` ends with it.
        if (this.taskId) this.terminal.cwds.clear(this.taskId);
        this.taskId = taskId?.() ?? newTaskId();
        return this.taskId;
      },
      maxOutputTokens: Math.min(info.maxOutput, 32_000),
      budgets: {
        maxRounds: this.opts.maxRounds ?? agentCfg.max_rounds,
        ...(agentCfg.time_budget_seconds ? { timeBudgetMs: agentCfg.time_budget_seconds * 1000 } : {}),
        sessionBudgetMs: agentCfg.session_budget_seconds * 1000,
        ...(agentCfg.cost_budget_usd ? { costBudgetUsd: agentCfg.cost_budget_usd } : {}),
      },
    });
  }

  /** Agent-layer compression, `/context` and the H7 switch check (SPEC C1, C4, M3, H7). */
  get context(): ContextControl {
    this.contextCtl ??= new ContextControl({
      profile: this.opts.profile,
      store: this.opts.store,
      events: this.events,
      cwd: this.opts.cwd,
      runtime: () => this.runtime,
      session: () => this.session,
      buildPrompt: () => this.buildPrompt(),
      adopt: (id) => {
        const from = this.current?.id ?? "";
        this.current = this.opts.store.getSession(id);
        // A front end re-points its own map (chat → session) on this event.
        this.emitTagged("session_split", { from, to: id }, { taskId: this.taskId });
      },
    });
    return this.contextCtl;
  }

  /** `/compress`: compress the current session now (between turns, so no call is open). */
  compressNow(): ReturnType<ContextControl["compressNow"]> {
    return this.context.compressNow(new FollowingConversation(this.opts.store, this.session.id));
  }

  private compressionHooks(log: FollowingConversation, model: ResilientModelClient) {
    return {
      beforeModelCall: this.context.beforeModelCall(log, model),
      onContextOverflow: this.context.onContextOverflow(log),
      currentSystemPrompt: () => this.current?.systemPrompt ?? "",
    };
  }

  /**
   * Ends this conversation's hold on the process: stops its turn, kills its background processes,
   * forgets its task directories and its approval memory (the policy dies with the session), and
   * denies whatever still waits for an answer. The store and the other sessions are untouched.
   */
  async close(reason = "closed"): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const turn = this.running;
    turn?.controller.abort();
    this.prompts.cancelAll();
    // The aborted turn writes its last rows (an interrupted round, usage) before the store may
    // close under it; an Agent ends an aborted turn promptly, the wait is bounded all the same.
    if (turn?.done) await settledWithin(turn.done, CLOSE_TURN_WAIT_MS);
    await closeTerminalScope(this.terminal);
    this.emitTagged("session_closed", { reason }, { taskId: this.taskId });
    this.opts.parent.forget(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** How long close() waits for an aborted turn to finish writing. */
const CLOSE_TURN_WAIT_MS = 10_000;

async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]);
  clearTimeout(timer);
}

/** The environment as start-up saw it, with the profile's .env read again now. */
function freshEnv(profile: Profile): Record<string, string> {
  return mergeEnv(process.env, loadDotenv(profile.home.paths.env).values).env;
}
