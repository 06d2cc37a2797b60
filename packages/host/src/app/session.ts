// One conversation of a process (ARCHITECTURE.md "Process scope and session scope"): its id (follows
// splits), route, model client, prompt, context control, todos, approval memory, processes,
// per-task directories and its own events tagged with its id.
// A fresh Agent per message (SPEC S2: the prompt is built once per session and reused byte for
// byte by every Agent and on resume). close() releases everything it holds, never the store.
import { join } from "node:path";
import {
  Agent,
  AgentEvents,
  compactionExpander,
  type FrontEnd,
  JsonlConversation,
  MemoryConversation,
  makeShaper,
  newTaskId,
  type RepairedCall,
  type ResilientModelClient,
  repairInterruptedCalls,
  StoreConversation,
  TodoList,
  type TurnResult,
  usageRowOf,
  withClientTools,
} from "@iris/agent";
import type { AssistantMessage, Message, Runtime, ToolSpec, UserMessage } from "@iris/llm";
import type { SessionRow, Store } from "@iris/store";
import {
  ApprovalMemory,
  type ApprovalMode,
  closeTerminalScope,
  type Menu,
  newTerminalScope,
  SkillLibrary,
  type TerminalScope,
} from "@iris/tools";
import type { Profile } from "../config/index.js";
import { withAskBoard } from "../dashboard/ask-board.js";
import { SwitchablePolicy } from "./approval-modes.js";
import { ContextControl } from "./context-control.js";
import { splitModelSpec } from "./context-report.js";
import { ChildSlots } from "./delegate.js";
import type { EventIdentity, HostEvent, HostEventListener, HostEventMap } from "./events.js";
import { EventFanout } from "./events.js";
import { FollowingConversation } from "./following-log.js";
import { inMemoryRow } from "./in-memory-row.js";
import { reasoningFor } from "./reasoning.js";
import { modelInfoFor, type RouteFlags, resolveMainRoute } from "./route.js";
import type { DetachedLog, LogChoice, SessionLog } from "./session-log.js";
import { followMenu, withoutEmptySkills } from "./session-menu.js";
import { makeResilientClient } from "./session-model-client.js";
import type { SessionParent } from "./session-parent.js";
import { SessionPrompts } from "./session-prompts.js";
import { defaultSystemPrompt, withInstructions } from "./session-system-prompt.js";
import { sessionToolBox } from "./session-toolbox.js";
import { settledWithin } from "./settled-within.js";
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
  /** Sent after the frozen prompt at call time, never stored (OpenSessionOptions). */
  ephemeralSystemPrompt?: string;
  /** `--system-prompt` replaces the built prompt, `--append-system-prompt` adds to it. */
  promptEdits?: { replace?: string; append?: string };
  /** The conversation log startSession() opens (default: the store's). */
  log?: LogChoice;
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
  /** A memory or JSONL log: the conversation is not in state.db (undefined: the store's log). */
  private detached: DetachedLog | undefined;
  /** An API client's system text, frozen after Iris's prompt and kept when it is rebuilt. */
  private instructions: string | undefined;

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

  /**
   * A new session with a freshly built, then frozen, system prompt; `instructions` (an API
   * client's system messages) are frozen into it after Iris's own. The session is written to the
   * log chosen at open: the store (default), memory, or a JSONL file (an existing file is
   * continued with its own frozen prompt).
   */
  startSession(instructions?: string): SessionRow {
    const choice = this.opts.log ?? { kind: "store" };
    if (choice.kind === "memory") return this.startInMemory(choice.history ?? [], instructions);
    this.skillLibrary = undefined; // a new session reads the skills afresh (S2)
    this.menu = undefined; // and takes the menu as it is now
    this.instructions = instructions;
    this.todos = new TodoList();
    this.approvals = new ApprovalMemory();
    if (choice.kind === "jsonl") {
      const log = new JsonlConversation(choice.path);
      if (log.systemPrompt === undefined) log.setSystemPrompt(this.framedPrompt());
      this.todos = TodoList.fromHistory(log.history());
      return this.detach(log, log.systemPrompt ?? "");
    }
    const { runtime } = this;
    const { source, store, cwd } = this.opts;
    this.detached = undefined;
    this.current = store.createSession({
      source,
      cwd,
      systemPrompt: this.framedPrompt(),
      model: runtime.model,
      provider: runtime.provider,
    });
    return this.current;
  }

  /**
   * A conversation held only in memory (stateless API requests): `history` is what the client
   * sent, `instructions` (the client's system messages) follow the frozen prompt. Nothing of it
   * lands in state.db; compression works on it as on any log, in memory.
   */
  startInMemory(history: readonly Message[], instructions?: string): SessionRow {
    this.instructions = instructions;
    this.todos = TodoList.fromHistory(history);
    this.approvals = new ApprovalMemory();
    return this.detach(new MemoryConversation({ history }), this.framedPrompt());
  }

  private detach(log: DetachedLog, systemPrompt: string): SessionRow {
    const { runtime } = this;
    this.detached = log;
    this.current = inMemoryRow({
      id: log.sessionId,
      source: this.opts.source,
      cwd: this.opts.cwd,
      systemPrompt,
      model: runtime.model,
      provider: runtime.provider,
    });
    return this.current;
  }

  /** Iris's frozen prompt built now, then the API client's instructions. */
  private framedPrompt(): string {
    return withInstructions(this.buildPrompt(), this.instructions);
  }

  /** The log the next turn writes: the detached one, or the store's (following splits). */
  private logForTurn(): SessionLog {
    return this.detached ?? new FollowingConversation(this.opts.store, this.session.id);
  }

  /** The conversation as the next turn sees it (in memory, or the store's active path). */
  history(): Message[] {
    return this.detached?.history() ?? new StoreConversation(this.opts.store, this.session.id).history();
  }

  /**
   * One user message as one Agent turn; `null` continues the history as it stands (an API client
   * answered the calls of its own tools). Without a front end of its own the session asks through
   * events: `approval_requested` / `clarify_requested`, answered by answerApproval / answerClarify.
   * `clientTools` are offered next to Iris's own; their calls end the turn (`client_tool_calls`).
   */
  async send(
    input: string | UserMessage | null,
    opts: { frontEnd?: FrontEnd; signal?: AbortSignal; clientTools?: readonly ToolSpec[] } = {},
  ): Promise<TurnResult> {
    if (this.closed) throw new Error("the session is closed");
    if (this.running) throw new Error("a turn is already running in this session; use inject()");
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const taskId = newTaskId();
    const emit = this.emitTagged.bind(this);
    const agent = this.newAgent(
      opts.frontEnd ?? this.prompts.frontEnd(emit, () => taskId),
      () => taskId,
      opts.clientTools,
    );
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

  /** The approval mode now (manual, smart, off); an editor's mode picker changes it per session. */
  get approvalMode(): ApprovalMode {
    const { policy } = this.opts.tools;
    return policy instanceof SwitchablePolicy ? policy.mode : this.opts.tools.defaultMode;
  }

  /** Switches this session's approval mode; the next approval check uses it. */
  setApprovalMode(mode: ApprovalMode): void {
    const { policy } = this.opts.tools;
    if (!(policy instanceof SwitchablePolicy)) throw new Error("this session's approval mode is fixed");
    policy.mode = mode;
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
    const menu = this.menu ?? this.menuForTurn();
    return defaultSystemPrompt(this.opts.profile, this.opts.cwd, this.runtime, menu, () => this.skills);
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
    if (this.current && this.detached) {
      this.setDetachedPrompt(this.framedPrompt());
      this.current = { ...this.current, model: resolved.runtime.model, provider: resolved.runtime.provider };
    } else if (this.current) {
      store.setSystemPrompt(this.current.id, this.framedPrompt());
      store.setSessionModel(this.current.id, resolved.runtime.model, resolved.runtime.provider);
      this.current = store.getSession(this.current.id);
    }
    return { ok: true, warnings: [...warnings, ...resolved.notes] };
  }

  /**
   * Continue a stored session; its frozen prompt is reused as stored. `answers` are tool results
   * an API client sends for the calls of its own tools: they are appended before the crash repair,
   * which would otherwise close those calls as never executed.
   */
  resumeSession(id: string, answers: readonly Message[] = []): SessionRow | undefined {
    const row = this.opts.store.findSession(id) ?? this.findByPrefix(id);
    if (!row) return undefined;
    this.current = row;
    this.detached = undefined;
    this.instructions = undefined;
    for (const message of answers) this.opts.store.appendNode(row.id, { kind: "message", message });
    // Before anything reads the history: close calls a killed process left without results.
    this.repairNotices = repairInterruptedCalls(this.opts.store, row.id).repaired;
    this.todos = TodoList.fromHistory(new StoreConversation(this.opts.store, row.id).history());
    this.approvals = new ApprovalMemory();
    return row;
  }

  /**
   * What the resume repaired (calls a crash left open, uncertain effects), taken now so a front end
   * can tell the user at once (an editor at `session/load`); what is not taken is told by the next turn.
   */
  takeRepairNotices(): RepairedCall[] {
    return this.repairNotices.splice(0);
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

  /** A call made outside a turn's loop (the judge) is recorded like every other (F3). */
  recordAuxiliaryCall(message: AssistantMessage, costUsd: number, latencyMs: number): void {
    const row = usageRowOf(this.taskId || newTaskId(), message, costUsd, latencyMs);
    // Straight to the store: logForTurn() would load the whole session for one row.
    if (this.detached) this.detached.recordUsage(row);
    else this.opts.store.recordUsage({ sessionId: this.session.id, ...row });
  }

  private resilientClient(
    primary: Runtime,
    onRouteChange: ((rt: Runtime) => void) | undefined,
  ): ResilientModelClient {
    return makeResilientClient(this.opts.profile, this.opts.parent, this.events, primary, onRouteChange);
  }

  /** Made per message (cheap): everything expensive lives in the process and the session. */
  newAgent(frontEnd: FrontEnd = {}, taskId?: () => string, clientTools?: readonly ToolSpec[]): Agent {
    if (this.closed) throw new Error("the session is closed");
    const { runtime } = this;
    const { profile, store, tools, cwd } = this.opts;
    const session = this.session;
    // Questions also go to the ask board, where the dashboard answers them by request id.
    frontEnd = withAskBoard(frontEnd, store, session.id, this.opts.source);
    for (const r of this.repairNotices.splice(0))
      this.events.emit("status", { level: r.outcome === "uncertain" ? "warn" : "info", message: r.message });
    const info = modelInfoFor(runtime.provider, runtime.model, profile.config).info;
    const model = this.modelClient();
    const log = this.logForTurn();
    const ownBox = sessionToolBox({
      profile,
      store,
      cwd,
      tools,
      menu: this.menuForTurn(),
      frontEnd,
      events: this.events,
      terminal: this.terminal,
      skills: this.skills,
      approvals: this.approvals,
      todos: this.todos,
      sessionId: session.id,
      model,
      slots: this.childSlots,
      receipts: this.detached?.receipts ?? store,
      detached: this.detached,
      forward: (name, payload, identity) => this.tag(name, payload, identity),
    });
    const box = clientTools?.length ? withClientTools(ownBox, clientTools) : ownBox;
    const agentCfg = profile.config.agent;
    const shape = makeShaper(
      model,
      (provider, name) => {
        const found = modelInfoFor(provider, name, profile.config).info;
        return { contextWindow: found.contextWindow, vision: found.vision };
      },
      this.withEphemeral(session.systemPrompt ?? ""),
      compactionExpander(store),
    );
    return new Agent({
      shape,
      reasoningFor: (route) => reasoningFor(profile.config, route),
      log,
      model,
      tools: box,
      systemPrompt: this.withEphemeral(session.systemPrompt ?? ""),
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
      adopt: (id) => {
        const from = this.current?.id ?? "";
        // S2: the frozen prompt is rebuilt after a compression; the child starts with it.
        const prompt = this.framedPrompt();
        if (this.detached && this.current) {
          this.current = { ...this.current, id };
          this.setDetachedPrompt(prompt);
        } else {
          this.opts.store.setSystemPrompt(id, prompt);
          this.current = this.opts.store.getSession(id);
        }
        // A front end re-points its own map (chat → session) on this event.
        this.emitTagged("session_split", { from, to: id }, { taskId: this.taskId });
      },
    });
    return this.contextCtl;
  }

  /** `/compress`: compress the current session now (between turns, so no call is open). */
  compressNow(): ReturnType<ContextControl["compressNow"]> {
    return this.context.compressNow(this.logForTurn());
  }

  /** A detached log's frozen prompt changed (a compression, a model switch). */
  private setDetachedPrompt(prompt: string): void {
    this.detached?.setSystemPrompt?.(prompt);
    if (this.current) this.current = { ...this.current, systemPrompt: prompt };
  }

  private compressionHooks(log: SessionLog, model: ResilientModelClient) {
    return {
      beforeModelCall: this.context.beforeModelCall(log, model),
      onContextOverflow: this.context.onContextOverflow(log),
      currentSystemPrompt: () => this.withEphemeral(this.current?.systemPrompt ?? ""),
    };
  }

  /** The prompt the model is sent: the frozen one, then the ephemeral one (never stored). */
  private withEphemeral(frozen: string): string {
    const extra = this.opts.ephemeralSystemPrompt;
    return extra ? `${frozen}\n\n${extra}` : frozen;
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
