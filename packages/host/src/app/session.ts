// One conversation of a process (ARCHITECTURE.md "Process scope and session scope"), as front ends
// use it: send (under the session's turn lease), inject, interrupt, answer, history, usage, title,
// rewind, model and workspace switches, resume, close. A thin facade: its parts are wired in
// session-parts.ts (log, frozen prompt, model clients, event tagging, memory, context control), a
// turn runs in session-turn.ts, its Agent is assembled per message in session-turn-agent.ts (SPEC
// S2: the prompt is built once per session and reused byte for byte by every Agent and on resume).
// close() releases everything it holds, never the store.
import type { AgentEvents, RepairedCall, ResilientModelClient } from "@iris/agent";
import type { AssistantMessage, Message, Runtime, UserMessage } from "@iris/llm";
import type { SessionRow, UsageRow } from "@iris/store";
import type { ApprovalAnswer, ApprovalMode, SkillLibrary, Workspace } from "@iris/tools";
import type { IrisConfig, Profile } from "../config/index.js";
import { SwitchablePolicy } from "./approval-modes.js";
import type { ContextControl } from "./context-control.js";
import type { EventIdentity, HostEventListener, HostEventMap } from "./events.js";
import { type RewindResult, rewindSession } from "./rewind.js";
import type { SendOptions, SendResult, SessionOptions } from "./session-options.js";
import { SessionParts } from "./session-parts.js";
import { StoredSessions } from "./session-stored.js";
import { switchModel, switchWorkspace } from "./session-switches.js";
import { SessionTurn } from "./session-turn.js";
import type { ToolSetup } from "./tools-setup.js";
import type { WorkspaceBackend } from "./workspace-setup.js";

export type { SendOptions, SendResult, SessionOptions } from "./session-options.js";

export class Session {
  /** Raw agent events of this session's turns (what the CLI renders). */
  readonly events: AgentEvents;
  /** Where this session's tools run (terminal.backend), with its processes and per-task directories. */
  readonly workspace: Workspace;
  /** This conversation's stored turns and the other stored sessions (branch, look-up, picker). */
  readonly stored: StoredSessions;
  private readonly parts: SessionParts;
  private readonly turn: SessionTurn;
  private closed = false;

  constructor(private readonly opts: SessionOptions) {
    this.parts = new SessionParts(opts);
    this.events = this.parts.events;
    this.workspace = opts.workspace;
    this.stored = new StoredSessions(opts.store, () => this.session.id);
    this.turn = new SessionTurn(this.parts, () => this.closed);
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
  get runtime(): Runtime {
    return this.parts.models.runtime;
  }
  get session(): SessionRow {
    return this.parts.record.row;
  }
  /** Agent-layer compression, `/context` and the H7 switch check (SPEC C1, C4, M3, H7). */
  get context(): ContextControl {
    return this.parts.context;
  }
  /** The skills of this session, read once (SPEC S2): an edit shows in the next session. */
  get skills(): SkillLibrary {
    return this.parts.prompt.skills;
  }

  /** This session's events, tagged with their identity (subagents' included). */
  subscribe(fn: HostEventListener): () => void {
    return this.parts.tags.subscribe(fn);
  }

  /** Tags an event with this session's id and passes it to its subscribers and the process's. */
  emitTagged<K extends keyof HostEventMap>(
    name: K,
    payload: HostEventMap[K],
    identity: Omit<EventIdentity, "sessionId">,
  ): void {
    this.parts.tags.emit(name, payload, identity);
  }

  /**
   * A new session with a freshly built, then frozen, system prompt; `instructions` (an API
   * client's system messages) are frozen into it after Iris's own. The session is written to the
   * log chosen at open: the store (default), memory, or a JSONL file (an existing file is
   * continued with its own frozen prompt).
   */
  startSession(instructions?: string): Promise<SessionRow> {
    return this.parts.start(instructions);
  }

  /**
   * A conversation held only in memory (stateless API requests): `history` is what the client
   * sent, `instructions` (the client's system messages) follow the frozen prompt. Nothing of it
   * lands in state.db; compression works on it as on any log, in memory.
   */
  startInMemory(history: readonly Message[], instructions?: string): SessionRow {
    return this.parts.startInMemory(history, instructions);
  }

  /**
   * Continue a stored session (by id, short id or unique prefix; session-resume.ts has the
   * rules for `answers` and for a session another turn is running in). Its frozen prompt is reused
   * as stored.
   */
  resumeSession(id: string, answers: readonly Message[] = []): Promise<SessionRow | undefined> {
    return this.parts.resume(id, answers);
  }

  /**
   * What the resume repaired (calls a crash left open, uncertain effects), taken now so a front end
   * can tell the user at once (an editor at `session/load`); what is not taken is told by the next turn.
   */
  takeRepairNotices(): RepairedCall[] {
    return this.parts.memory.repairNotices.splice(0);
  }

  /** The conversation as the next turn sees it (in memory, or the store's active path). */
  history(): Promise<Message[]> {
    return this.parts.record.history();
  }
  /** The session's row now (title, cost, active leaf), re-read from the store. */
  row(): Promise<SessionRow> {
    return this.parts.record.reread();
  }
  /** The session's title (null until the first exchange names it). */
  async title(): Promise<string | null> {
    return (await this.row()).title;
  }
  /** Names the session from its first prompt when it has no title yet; the title now. */
  async ensureTitle(firstPrompt: string): Promise<string | null> {
    await this.parts.record.ensureTitle(firstPrompt);
    return this.title();
  }
  setTitle(title: string): Promise<void> {
    return this.parts.record.setTitle(title);
  }
  /** This session's billed calls (empty for a memory or JSONL log: their rows stay with the log). */
  usage(): Promise<UsageRow[]> {
    return this.parts.record.usage();
  }

  /** Moves the conversation back to `leafId` (a node of its path; null: before the first message),
   * as after an edit or a cancelled turn: what came after stays in the tree as a branch. */
  rewindTo(leafId: string | null): Promise<void> {
    return this.parts.record.rewindTo(leafId);
  }

  /** `/rewind`: back to before user message `n` (default: the last), with the files the receipted
   * calls since then wrote put back as they were (rewind.ts). Not while a turn runs. */
  async rewind(n?: number): Promise<RewindResult | { error: string }> {
    if (this.busy) return { error: "a turn is running; stop it first (/stop or Esc)" };
    if (this.parts.record.detached) return { error: "a conversation outside state.db cannot be rewound" };
    return rewindSession(this.opts.store, this.session.id, n, this.workspace, (id) => this.rewindTo(id));
  }

  /**
   * One user message as one Agent turn, under the session's turn lease (one turn at a time per
   * session, across processes: a second writer gets SessionBusyError). `null` continues the
   * history as it stands (an API client answered the calls of its own tools). Questions go out as
   * `approval_requested` / `clarify_requested` events, answered by answer() (unless `asks` says
   * nobody is asked), and `ask_withdrawn` when the session stops waiting.
   */
  send(input: string | UserMessage | null, opts: SendOptions = {}): Promise<SendResult> {
    return this.turn.send(input, opts);
  }
  /** A message that arrives while a turn runs: sent after the current round (SPEC L9). */
  inject(text: string): boolean {
    return this.turn.inject(text);
  }
  /** Stops the running turn (the Agent ends it with reason `interrupted`). */
  interrupt(): boolean {
    return this.turn.interrupt();
  }
  get busy(): boolean {
    return this.turn.busy;
  }

  /** The answer to an `approval_requested` or `clarify_requested` event, by its request id; false
   * when nothing waits under that id (answered already, or its turn ended). */
  answer(requestId: string, answer: ApprovalAnswer | string): boolean {
    return this.parts.prompts.answer(requestId, answer);
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
    policy.request(mode, this.busy);
  }
  /** Plan mode: turns started from now on are offered only the tools that read (session-menu.ts). */
  get planMode(): boolean {
    return this.parts.prompt.readOnly;
  }
  set planMode(on: boolean) {
    this.parts.prompt.readOnly = on;
  }

  /**
   * An explicit model switch (SPEC S2, H7): re-resolve the route, rebuild the frozen prompt for
   * this session, and warn when the switch costs the prompt cache of a long history.
   * `spec` is "MODEL" (same provider) or "PROVIDER/MODEL".
   */
  switchModel(spec: string): Promise<{ ok: true; warnings: string[] } | { ok: false; error: string }> {
    return switchModel(this.parts, spec);
  }

  /**
   * Moves this session's tools to another configured workspace (`/workspace`, ACP): the new one is
   * reached first (down: throws, nothing changes). The frozen prompt names the workspace, so it is
   * rebuilt, but only when the workspace really changed (the prompt cache is kept otherwise).
   * The new workspace's description.
   */
  switchWorkspace(backend: WorkspaceBackend): Promise<string> {
    return switchWorkspace(this.parts, backend);
  }

  /** The client of smart approval mode's judge (T4), for the process's approval judge. */
  judgeModel(): ResilientModelClient {
    return this.parts.models.judge();
  }
  /** A call made outside a turn's loop (the judge) is recorded like every other (F3). */
  recordAuxiliaryCall(message: AssistantMessage, costUsd: number, latencyMs: number): Promise<void> {
    return this.parts.recordAuxiliaryCall(message, costUsd, latencyMs);
  }

  /** `/compress`: compress the current session now (between turns, so no call is open). */
  async compressNow(): Promise<Awaited<ReturnType<ContextControl["compressNow"]>>> {
    return this.context.compressNow(await this.parts.record.logForTurn());
  }

  /**
   * Ends this conversation's hold on the process: stops its turn, kills its background processes,
   * forgets its task directories and its approval memory (the policy dies with the session), and
   * denies whatever still waits for an answer. The store and the other sessions are untouched.
   */
  async close(reason = "closed"): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const stopped = this.turn.stop(); // aborts at once, then waits (bounded) for its last writes
    this.parts.prompts.cancelAll();
    await stopped;
    await this.workspace.close();
    this.emitTagged("session_closed", { reason }, { taskId: this.parts.tags.taskId });
    this.opts.parent.forget(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
