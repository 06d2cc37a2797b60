// One conversation of a process (ARCHITECTURE.md "Process scope and session scope"): its id (follows
// splits), route, model client, prompt, context control, todos, approval memory, processes,
// per-task directories and its own events tagged with its id. It is the whole front-end API:
// send (under the session's turn lease), inject, interrupt, answer, history, usage, title, rewind.
// A fresh Agent per message (SPEC S2: the prompt is built once per session and reused byte for
// byte by every Agent and on resume). close() releases everything it holds, never the store.
import {
  type Agent,
  AgentEvents,
  type ClientTools,
  type FrontEnd,
  newTaskId,
  type RepairedCall,
  type ResilientModelClient,
  storedHistory,
  TodoList,
  type TurnResult,
  usageRowOf,
} from "@iris/agent";
import type { AssistantMessage, Message, Runtime, UserMessage } from "@iris/llm";
import type { SessionRow, Store, UsageRow } from "@iris/store";
import {
  type ApprovalAnswer,
  ApprovalMemory,
  type ApprovalMode,
  type SkillLibrary,
  type Workspace,
} from "@iris/tools";
import type { IrisConfig, Profile } from "../config/index.js";
import { withAskBoard } from "../dashboard/ask-board.js";
import { SwitchablePolicy } from "./approval-modes.js";
import { ContextControl } from "./context-control.js";
import { ChildSlots } from "./delegate.js";
import { imagesForRoute } from "./describe-image.js";
import type { EventIdentity, HostEvent, HostEventListener, HostEventMap } from "./events.js";
import { EventFanout } from "./events.js";
import { type RewindResult, rewindSession } from "./rewind.js";
import type { RouteFlags } from "./route.js";
import { assembleAgent } from "./session-agent.js";
import { FrozenPrompt } from "./session-frozen-prompt.js";
import type { LogChoice } from "./session-log.js";
import { makeResilientClient } from "./session-model-client.js";
import type { SessionParent } from "./session-parent.js";
import { SessionPrompts, type TurnAsks, type TurnHooks } from "./session-prompts.js";
import { SessionRecord } from "./session-record.js";
import { repairNow, resumeStored } from "./session-resume.js";
import { judgeClient, resolveSwitch } from "./session-routes.js";
import { StoredSessions } from "./session-stored.js";
import { type HeldTurn, SessionBusyError } from "./session-turn-lock.js";
import { settledWithin } from "./settled-within.js";
import type { ToolSetup } from "./tools-setup.js";
import { promptWorkspaceOf, switchSessionWorkspace, type WorkspaceBackend } from "./workspace-setup.js";

export interface SessionOptions {
  /** The process that owns the session (events, cooldowns, logger, turn locks). */
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
  /** Where its tools run (IrisProcess builds it from terminal.backend). */
  workspace: Workspace;
  /** Its menu limited to these toolsets (OpenSessionOptions.toolsets). */
  toolsets?: readonly string[];
}

/** What a turn ended with, and the messages typed during it that no round took (send them next). */
export type SendResult = TurnResult & { unsent: UserMessage[] };

export interface SendOptions {
  /** What the front end adds to the turn besides asking (files, tool hooks). */
  frontEnd?: TurnHooks;
  /** Who answers approvals and clarify questions (default `events`, answered by answer()). */
  asks?: TurnAsks;
  signal?: AbortSignal;
  /** An API client's own tools: their calls end the turn (`client_tool_calls`). */
  clientTools?: ClientTools;
}

export class Session {
  /** Raw agent events of this session's turns (what the CLI renders). */
  readonly events = new AgentEvents();
  /** Where this session's tools run (terminal.backend), with its processes and per-task directories. */
  readonly workspace: Workspace;
  /** This conversation's stored turns and the other stored sessions (branch, look-up, picker). */
  readonly stored: StoredSessions;
  private readonly tagged = new EventFanout();
  private readonly prompts = new SessionPrompts();
  private readonly prompt: FrozenPrompt;
  /** The turn running now; its agent is made once the session's turn lease is held. */
  private running: { agent?: Agent; controller: AbortController; done?: Promise<unknown> } | undefined;
  private taskId = "";
  private closed = false;
  /** Its row and log: state.db's, memory or JSONL (session-record.ts). */
  private readonly record: SessionRecord;
  private todos = new TodoList();
  /** "For this session" approvals: a new memory with every new or resumed session. */
  private approvals = new ApprovalMemory();
  /** Subagents running now for this session (delegation.max_concurrent_children). */
  private childSlots: ChildSlots;
  private currentRuntime: Runtime;
  private model: ResilientModelClient | undefined;
  private contextCtl: ContextControl | undefined;
  /** Calls a crash left open, closed on resume (SPEC D4); told to the user by the next Agent. */
  private repairNotices: RepairedCall[] = [];
  /** A resume found another turn running: its open calls are not a crash's, repair waits for send. */
  private repairPending = false;

  constructor(private readonly opts: SessionOptions) {
    this.currentRuntime = opts.runtime;
    this.workspace = opts.workspace;
    this.record = new SessionRecord(opts.store, opts.source, opts.cwd);
    this.stored = new StoredSessions(opts.store, () => this.session.id);
    this.childSlots = new ChildSlots(opts.profile.config.delegation.max_concurrent_children);
    this.prompt = new FrozenPrompt({
      profile: opts.profile,
      cwd: opts.cwd,
      source: opts.source,
      tools: opts.tools,
      runtime: () => this.currentRuntime,
      workspace: () => promptWorkspaceOf(this.workspace),
      ...(opts.promptEdits ? { promptEdits: opts.promptEdits } : {}),
      ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
    });
    // Every raw event goes out again tagged with this session and the running task.
    this.events.onAny((name, payload) => this.tag(name, payload, { taskId: this.taskId }));
  }

  /** The conversation's id now (it changes when compression splits the session). */
  get id(): string {
    return this.session.id;
  }

  /** The profile this session runs under (read-only). */
  get profile(): Profile {
    return this.opts.profile;
  }
  get config(): IrisConfig {
    return this.opts.profile.config;
  }
  get cwd(): string {
    return this.opts.cwd;
  }
  get source(): string {
    return this.opts.source;
  }
  /** The tools offered now (names for a front end's list; the menu of the next turn may differ). */
  get toolNames(): string[] {
    return this.opts.tools.menu.specs.map((s) => s.name);
  }
  /** The process's MCP client set (prompts and resources a front end expands in its input). */
  get mcp(): ToolSetup["mcp"] {
    return this.opts.tools.mcp;
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
    const event = { sessionId: this.record.started?.id ?? "", ...identity, name, payload } as HostEvent;
    this.tagged.emit(event);
    this.opts.parent.events.emit(event);
  }

  get runtime(): Runtime {
    return this.currentRuntime;
  }
  get session(): SessionRow {
    return this.record.row;
  }

  /**
   * A new session with a freshly built, then frozen, system prompt; `instructions` (an API
   * client's system messages) are frozen into it after Iris's own. The session is written to the
   * log chosen at open: the store (default), memory, or a JSONL file (an existing file is
   * continued with its own frozen prompt).
   */
  async startSession(instructions?: string): Promise<SessionRow> {
    const choice = this.opts.log ?? { kind: "store" };
    if (choice.kind === "memory") return this.startInMemory(choice.history ?? [], instructions);
    this.prompt.reset(instructions, true); // a new session reads skills and menu afresh (S2)
    this.todos = new TodoList();
    this.approvals = new ApprovalMemory();
    this.repairPending = false;
    if (choice.kind === "jsonl") {
      const log = this.record.openJsonl(choice.path, () => this.prompt.build(), this.runtime);
      this.todos = TodoList.fromHistory(await log.history());
      return this.session;
    }
    return this.record.createInStore(this.prompt.build(), this.runtime);
  }

  /**
   * A conversation held only in memory (stateless API requests): `history` is what the client
   * sent, `instructions` (the client's system messages) follow the frozen prompt. Nothing of it
   * lands in state.db; compression works on it as on any log, in memory.
   */
  startInMemory(history: readonly Message[], instructions?: string): SessionRow {
    this.prompt.reset(instructions, false);
    this.todos = TodoList.fromHistory(history);
    this.approvals = new ApprovalMemory();
    this.repairPending = false;
    const { sharedPrompts } = this.opts.parent;
    const prompt = sharedPrompts ? this.prompt.buildShared(sharedPrompts) : this.prompt.build();
    return this.record.openInMemory(history, prompt, this.runtime);
  }

  /** The conversation as the next turn sees it (in memory, or the store's active path). */
  history(): Promise<Message[]> {
    return this.record.history();
  }

  /** The session's row now (title, cost, active leaf), re-read from the store. */
  row(): Promise<SessionRow> {
    return this.record.reread();
  }

  /** The session's title (null until the first exchange names it). */
  async title(): Promise<string | null> {
    return (await this.row()).title;
  }

  /** Names the session from its first prompt when it has no title yet; the title now. */
  async ensureTitle(firstPrompt: string): Promise<string | null> {
    await this.record.ensureTitle(firstPrompt);
    return this.title();
  }

  setTitle(title: string): Promise<void> {
    return this.record.setTitle(title);
  }

  /** This session's billed calls (empty for a memory or JSONL log: their rows stay with the log). */
  usage(): Promise<UsageRow[]> {
    return this.record.usage();
  }

  /** Moves the conversation back to `leafId` (a node of its path; null: before the first message),
   * as after an edit or a cancelled turn: what came after stays in the tree as a branch. */
  rewindTo(leafId: string | null): Promise<void> {
    return this.record.rewindTo(leafId);
  }

  /** `/rewind`: back to before user message `n` (default: the last), with the files the receipted
   * calls since then wrote put back as they were (rewind.ts). Not while a turn runs. */
  async rewind(n?: number): Promise<RewindResult | { error: string }> {
    if (this.running) return { error: "a turn is running; stop it first (/stop or Esc)" };
    if (this.record.detached) return { error: "a conversation outside state.db cannot be rewound" };
    return rewindSession(this.opts.store, this.session.id, n, this.workspace, (id) => this.rewindTo(id));
  }

  /**
   * One user message as one Agent turn, under the session's turn lease (one turn at a time per
   * session, across processes: a second writer gets SessionBusyError). `null` continues the
   * history as it stands (an API client answered the calls of its own tools). Questions go out as
   * `approval_requested` / `clarify_requested` events, answered by answer() (unless `asks` says
   * nobody is asked), and `ask_withdrawn` when the session stops waiting.
   */
  async send(input: string | UserMessage | null, opts: SendOptions = {}): Promise<SendResult> {
    if (this.closed) throw new Error("the session is closed");
    if (this.running)
      throw new SessionBusyError(
        "a turn is already running in this session; use inject()",
        this.record.started?.id ?? "",
      );
    // Marked running before the first await, so a second send() is refused at once.
    const controller = new AbortController();
    const running: NonNullable<Session["running"]> = { controller };
    this.running = running;
    let held: HeldTurn | undefined;
    try {
      held = await this.takeTurn();
      if (this.repairPending) this.repairNotices.push(...(await repairNow(this.opts.store, this.session.id)));
      this.repairPending = false;
      const onAbort = () => controller.abort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      const taskId = newTaskId();
      const emit = this.emitTagged.bind(this);
      const agent = await this.newAgent(
        this.prompts.turnFrontEnd(opts.frontEnd ?? {}, opts.asks ?? "events", emit, () => taskId),
        () => taskId,
        opts.clientTools,
      );
      running.agent = agent;
      this.taskId = taskId;
      try {
        await this.workspace.connect?.(); // down: WorkspaceUnavailable; then images fitted to the route
        const ready = imagesForRoute(
          input,
          this.model?.route() ?? this.runtime,
          this.opts,
          controller.signal,
          (message, costUsd, latencyMs) => this.recordAuxiliaryCall(message, costUsd, latencyMs),
        );
        const done = ready.then((i) => agent.run(i, { signal: controller.signal }));
        running.done = done;
        const result = await done;
        return { ...result, unsent: agent.takeUnsent() };
      } finally {
        opts.signal?.removeEventListener("abort", onAbort);
        if (this.opts.tools.policy instanceof SwitchablePolicy) this.opts.tools.policy.turnEnded();
        // A task's `cd` ends with the task; the session's processes live on until close().
        this.workspace.cwds.clear(taskId);
        this.prompts.cancelTask(taskId);
      }
    } finally {
      this.running = undefined;
      await held?.release();
    }
  }

  /** The session's turn (a detached log is this process's alone: no lease). */
  private async takeTurn(): Promise<HeldTurn | undefined> {
    if (this.record.detached) return undefined;
    return this.opts.parent.turns.take(this.opts.store, this.session.id);
  }

  /** A message that arrives while a turn runs: sent after the current round (SPEC L9). */
  inject(text: string): boolean {
    return this.running?.agent?.inject({ role: "user", content: text }) ?? false;
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
  /** Plan mode: turns started from now on are offered only the tools that read (session-menu.ts). */
  get planMode(): boolean {
    return this.prompt.readOnly;
  }
  set planMode(on: boolean) {
    this.prompt.readOnly = on;
  }

  setApprovalMode(mode: ApprovalMode): void {
    const { policy } = this.opts.tools;
    if (!(policy instanceof SwitchablePolicy)) throw new Error("this session's approval mode is fixed");
    policy.request(mode, this.running !== undefined);
  }

  /** The answer to an `approval_requested` or `clarify_requested` event, by its request id; false
   * when nothing waits under that id (answered already, or its turn ended). */
  answer(requestId: string, answer: ApprovalAnswer | string): boolean {
    return this.prompts.answer(requestId, answer);
  }

  /** The skills of this session, read once (SPEC S2): an edit shows in the next session. */
  get skills(): SkillLibrary {
    return this.prompt.skills;
  }

  /**
   * An explicit model switch (SPEC S2, H7): re-resolve the route, rebuild the frozen prompt for
   * this session, and warn when the switch costs the prompt cache of a long history.
   * `spec` is "MODEL" (same provider) or "PROVIDER/MODEL".
   */
  async switchModel(spec: string): Promise<{ ok: true; warnings: string[] } | { ok: false; error: string }> {
    const resolved = resolveSwitch(spec, this.opts.profile, this.runtime, this.opts.route);
    if (!resolved.ok) return { ok: false, error: resolved.error };
    const warnings: string[] = [];
    if (this.record.started) warnings.push(...(await this.context.switchRisks()));
    this.currentRuntime = resolved.runtime;
    this.model = undefined;
    this.contextCtl?.routeChanged(undefined); // thresholds follow the new route (SPEC M2)
    if (this.record.started) await this.record.switched(this.prompt.build(), resolved.runtime);
    return { ok: true, warnings: [...warnings, ...resolved.notes] };
  }

  /**
   * Moves this session's tools to another configured workspace (`/workspace`, ACP): the new one is
   * reached first (down: throws, nothing changes). The frozen prompt names the workspace, so it is
   * rebuilt, but only when the workspace really changed (the prompt cache is kept otherwise).
   * The new workspace's description.
   */
  async switchWorkspace(backend: WorkspaceBackend): Promise<string> {
    const before = this.workspace.description;
    const now = await switchSessionWorkspace(this.workspace, this.opts.profile, this.opts.cwd, backend);
    if (now !== before && this.record.started) await this.record.switched(this.prompt.build(), this.runtime);
    return now;
  }

  /**
   * Continue a stored session (by id, short id or unique prefix; session-resume.ts has the
   * rules for `answers` and for a session another turn is running in). Its frozen prompt is reused
   * as stored.
   */
  async resumeSession(id: string, answers: readonly Message[] = []): Promise<SessionRow | undefined> {
    const resumed = await resumeStored(this.opts.store, this.opts.parent.turns, id, answers);
    if (!resumed) return undefined;
    const { row } = resumed;
    this.record.resumed(row);
    this.prompt.reset(undefined, false);
    this.repairPending = resumed.repaired === undefined;
    this.repairNotices = resumed.repaired ?? [];
    this.todos = TodoList.fromHistory(await storedHistory(this.opts.store, row.id));
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

  /** One resilient client per host and route: its cooldowns outlive a turn (SPEC U4). */
  private modelClient(): ResilientModelClient {
    this.model ??= this.resilientClient(this.runtime, (rt) => this.context.routeChanged(rt));
    return this.model;
  }

  /** The client of smart approval mode's judge (T4): `approvals.judge_model`, or the main route. */
  judgeModel(): ResilientModelClient {
    return judgeClient(this.opts.profile, this.runtime, this.modelClient(), (rt) =>
      this.resilientClient(rt, undefined),
    );
  }

  /** A call made outside a turn's loop (the judge) is recorded like every other (F3). */
  recordAuxiliaryCall(message: AssistantMessage, costUsd: number, latencyMs: number): Promise<void> {
    const row = usageRowOf(this.taskId || newTaskId(), message, costUsd, latencyMs);
    // Straight to the store: logForTurn() would load the whole session for one row.
    return this.record.recordUsage(row);
  }

  private resilientClient(primary: Runtime, onRouteChange?: (rt: Runtime) => void): ResilientModelClient {
    return makeResilientClient(this.opts.profile, this.opts.parent, this.events, primary, onRouteChange);
  }

  /** Made per message (cheap): everything expensive lives in the process and the session.
   * Private: a front end sends through send(), which holds the session's turn lease. */
  private async newAgent(
    frontEnd: FrontEnd = {},
    taskId?: () => string,
    clientTools?: ClientTools,
  ): Promise<Agent> {
    if (this.closed) throw new Error("the session is closed");
    const { profile, store, tools, cwd } = this.opts;
    const session = this.session;
    // Questions also go to the ask board, where the dashboard answers them by request id.
    frontEnd = await withAskBoard(frontEnd, store, session.id, this.opts.source);
    for (const r of this.repairNotices.splice(0))
      this.events.emit("status", { level: r.outcome === "uncertain" ? "warn" : "info", message: r.message });
    const model = this.modelClient();
    return assembleAgent({
      runtime: this.runtime,
      profile,
      store,
      cwd,
      events: this.events,
      frontEnd,
      model,
      log: await this.record.logForTurn(),
      context: this.context,
      box: {
        profile,
        store,
        cwd,
        frontEnd,
        events: this.events,
        model,
        tools,
        menu: this.prompt.menuForTurn(),
        workspace: this.workspace,
        skills: this.skills,
        approvals: this.approvals,
        todos: this.todos,
        sessionId: session.id,
        slots: this.childSlots,
        receipts: this.record.detached?.receipts ?? store,
        detached: this.record.detached,
        forward: (name, payload, identity) => this.tag(name, payload, identity),
      },
      ...(clientTools ? { clientTools } : {}),
      systemPrompt: () => this.withEphemeral(this.record.started?.systemPrompt ?? ""),
      ...(this.opts.maxRounds !== undefined ? { maxRounds: this.opts.maxRounds } : {}),
      // The task id tags this session's events while the turn runs.
      newTaskId: () => {
        // The previous turn has ended (one turn at a time): its `cd` ends with it.
        if (this.taskId) this.workspace.cwds.clear(this.taskId);
        this.taskId = taskId?.() ?? newTaskId();
        return this.taskId;
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
      detached: () => this.record.detached !== undefined,
      workspace: () => this.workspace.description,
      adopt: async (id) => {
        const from = this.record.started?.id ?? "";
        // S2: the frozen prompt is rebuilt after a compression; the child starts with it.
        await this.record.adopt(id, this.prompt.build());
        // A front end re-points its own map (chat → session) on this event.
        this.emitTagged("session_split", { from, to: id }, { taskId: this.taskId });
      },
    });
    return this.contextCtl;
  }

  /** `/compress`: compress the current session now (between turns, so no call is open). */
  async compressNow(): Promise<Awaited<ReturnType<ContextControl["compressNow"]>>> {
    return this.context.compressNow(await this.record.logForTurn());
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
    await this.workspace.close();
    this.emitTagged("session_closed", { reason }, { taskId: this.taskId });
    this.opts.parent.forget(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
/** How long close() waits for an aborted turn to finish writing. */
const CLOSE_TURN_WAIT_MS = 10_000;
