// The state interface (ARCHITECTURE.md "Storage"): what the rest of Iris may ask of the store,
// by concern, every call a Promise so an engine may live across a network (Postgres) as well as
// in this process (SQLite, the default). Engines implement `Store`; nothing outside
// packages/store sees a database handle, a statement or a transaction. Where two writes must land
// together, the interface has one method for both (`startSession`), and the engine keeps the
// transaction inside itself.
import type { Message } from "@iris/llm";
import type { ActiveTime } from "./active-time.js";
import type { BranchTip } from "./branch-tips.js";
import type { CompactionExpansion } from "./compaction.js";
import type { AskKind, AskRow } from "./dashboard-asks.js";
import type {
  SessionCursor,
  SessionListRow,
  UsageDayRow,
  UsageSplit,
  UsageTotals,
} from "./dashboard-reads.js";
import type { EffectSnapshotRow } from "./effect-snapshots.js";
import type { BeginEffectInput, BeginEffectResult, EffectRow } from "./effects.js";
import type { McpStateInput, McpStateRow } from "./mcp-state.js";
import type { NodeInput } from "./nodes.js";
import type { PlatformHealthRow, PlatformState } from "./platform-health.js";
import type { RouteCooldownRow } from "./route-cooldowns.js";
import type { NodeRow, SessionRow } from "./rows.js";
import type { SearchHit, SearchOptions } from "./search.js";
import type { AcquireLeaseInput, AcquireLeaseResult, LeaseHolder, SessionLease } from "./session-leases.js";
import type { CreateSessionInput, ListSessionsOptions, SessionPageOptions } from "./sessions.js";
import type { TableHost } from "./tables/table-set.js";
import type { UsageInput, UsageRow } from "./usage.js";
import type { WebPageHit, WebPageInput } from "./web-pages.js";

/** Which engine holds the state. */
export type StoreBackend = "sqlite" | "postgres";

/** A new session written together with its first nodes, optionally ending another one. */
export interface StartSessionInput {
  session: CreateSessionInput;
  /** Appended to the new session in the same transaction (a split's compacted history, a fork). */
  nodes?: readonly NodeInput[];
  /** Ends this session with `reason` in the same transaction (a compression split). */
  ends?: { sessionId: string; reason: string };
}

/** Sessions: metadata, the frozen system prompt, running totals (SPEC D2). */
export interface SessionState {
  createSession(input: CreateSessionInput): Promise<SessionRow>;
  /** One write: the session, its first nodes and the end of the session it continues. */
  startSession(input: StartSessionInput): Promise<SessionRow>;
  getSession(id: string): Promise<SessionRow>;
  findSession(id: string): Promise<SessionRow | undefined>;
  listSessions(options?: ListSessionsOptions): Promise<SessionRow[]>;
  /** One page of a source's sessions, newest first, filtered by folder and end reason. */
  sessionPage(options: SessionPageOptions): Promise<SessionRow[]>;
  /** Sessions whose id starts with `prefix` (at most `limit`). */
  sessionsWithPrefix(prefix: string, limit?: number): Promise<SessionRow[]>;
  /** Sessions whose id ends with `tail`, 6+ characters (a short id). */
  sessionsWithTail(tail: string, limit?: number): Promise<SessionRow[]>;
  /** Sessions whose short id (last 8 characters) starts with `prefix`: an indexed range. */
  sessionsWithShortIdPrefix(prefix: string, limit?: number): Promise<SessionRow[]>;
  /** Sessions started from `parentId`: a compression's child, subagents, newest first. */
  childSessions(parentId: string): Promise<SessionRow[]>;
  /** Ends the session (search indexing of its nodes follows off the request path). */
  endSession(id: string, reason: string): Promise<SessionRow>;
  setSystemPrompt(id: string, text: string): Promise<void>;
  setSessionModel(id: string, model: string, provider: string): Promise<void>;
  setSessionTitle(id: string, title: string): Promise<void>;
  /** Removes the session and everything stored for it; refused while another session builds on it. */
  deleteSession(id: string): Promise<void>;
}

/** The node tree (SPEC D3): append-only, branches, the active path. */
export interface NodeTreeState {
  appendNode(sessionId: string, input: NodeInput): Promise<NodeRow>;
  /** A whole round (assistant + tool results) in one transaction, chained after the active leaf. */
  appendNodes(sessionId: string, inputs: readonly NodeInput[]): Promise<NodeRow[]>;
  getNode(id: string): Promise<NodeRow>;
  findNode(id: string): Promise<NodeRow | undefined>;
  pathToRoot(leafId: string): Promise<NodeRow[]>;
  /** The active path of a session, root first ([] for a session with no nodes). */
  activePath(sessionId: string): Promise<NodeRow[]>;
  activeLeaf(sessionId: string): Promise<NodeRow | null>;
  setActiveLeaf(sessionId: string, nodeId: string): Promise<void>;
  /** Start the conversation over: the active path is empty; earlier nodes stay in the store. */
  clearActiveLeaf(sessionId: string): Promise<void>;
  /** Continue the conversation from `nodeId`: the next append becomes a new branch below it. */
  branchFrom(nodeId: string): Promise<NodeRow>;
  /** Stores an edited user message as a sibling of the original; the old branch stays readable. */
  editUserMessage(nodeId: string, newMessage: Message): Promise<NodeRow>;
  /** One page of the path from the root to `leafId` (undefined: no such node in the session). */
  branchPage(
    sessionId: string,
    leafId: string,
    afterSeq: number,
    limit: number,
  ): Promise<NodeRow[] | undefined>;
  /** The tips of every branch of the session, oldest first. */
  listBranches(sessionId: string): Promise<NodeRow[]>;
  expandCompaction(nodeId: string): Promise<CompactionExpansion>;
}

/** Search over every stored node: words, and substrings for CJK and pieces of words (SPEC U7). */
export interface SearchState {
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  rebuildSearchIndex(): Promise<void>;
  /** Indexes every node appended since the last catch-up; returns the span indexed. */
  catchUpSearchIndex(): Promise<number>;
  /** An upper bound on the nodes not yet in the search index. */
  searchIndexBacklog(): Promise<number>;
}

/** One row per API call, the session's totals moved with it (SPEC F3). */
export interface UsageState {
  recordUsage(input: UsageInput): Promise<UsageRow>;
  /** What a session cost with its subagents' sessions (a child counts against its parent's budget). */
  sessionCostWithChildrenUsd(sessionId: string): Promise<number>;
  usageForSession(sessionId: string): Promise<UsageRow[]>;
}

/** Tool-effect receipts (SPEC D4). */
export interface EffectState {
  beginEffect(input: BeginEffectInput): Promise<BeginEffectResult>;
  getEffect(id: string): Promise<EffectRow>;
  completeEffect(id: string, result: unknown): Promise<EffectRow>;
  failEffect(id: string, error: string): Promise<EffectRow>;
  findEffectByOp(logicalOpId: string): Promise<EffectRow | undefined>;
  /** By full id, or by a unique prefix of at least 4 characters. */
  findEffect(idOrPrefix: string): Promise<EffectRow | undefined>;
  /** The newest `limit` receipts, oldest first. */
  listEffects(limit?: number): Promise<EffectRow[]>;
  listUnresolved(sessionId?: string): Promise<EffectRow[]>;
  resolveEffect(id: string, outcome: "applied" | "not_applied", evidence: string): Promise<EffectRow>;
  /** The files receipted calls anchored on `nodeIds` wrote, as they were before (newest call first). */
  fileSnapshots(nodeIds: readonly string[]): Promise<EffectSnapshotRow[]>;
}

/** One live turn per session across processes (SPEC D1, H1). */
export interface LeaseState {
  /** Takes the session's lease atomically: two processes cannot both win. */
  acquire(input: AcquireLeaseInput): Promise<AcquireLeaseResult>;
  /** Pushes the expiry out; false when the lease is no longer ours. */
  renew(sessionId: string, holder: LeaseHolder, expiresAt: number): Promise<boolean>;
  release(sessionId: string, holder: LeaseHolder): Promise<void>;
  list(): Promise<SessionLease[]>;
}

/** Route cooldowns shared by every process of the profile (SPEC U4). */
export interface CooldownState {
  set(routeKey: string, untilMs: number, reason: string | undefined, now: number): Promise<void>;
  clear(routeKey: string): Promise<void>;
  get(routeKey: string): Promise<RouteCooldownRow | undefined>;
  /** Cooldowns not yet expired at `now`. */
  listActive(now: number): Promise<RouteCooldownRow[]>;
}

/** Time the agent worked per session (the session budget counts it, SPEC L4). */
export interface ActiveTimeState {
  addTurn(sessionId: string, ms: number): Promise<void>;
  get(sessionId: string): Promise<ActiveTime>;
}

/**
 * The dashboard's reads over the conversation tables (SPEC E1): keyset pages and daily usage sums,
 * fast on a profile with 100,000 sessions; nothing loads a whole table.
 */
export interface DashboardReads {
  /**
   * Usage per UTC day and split key on the UTC days [fromDay, toDay] (day numbers since
   * 1970-01-01).
   */
  usageByDay(fromDay: number, toDay: number, split: UsageSplit): Promise<UsageDayRow[]>;
  /** Usage on the UTC days [fromDay, toDay]. */
  usageOnDays(fromDay: number, toDay: number): Promise<UsageTotals>;
  sessionCount(): Promise<number>;
  /** One page of sessions, newest first, after `cursor`. */
  sessionsPage(limit: number, cursor?: SessionCursor): Promise<SessionListRow[]>;
  /** Sessions by id, in the order given (the ones that exist). */
  sessionsById(ids: readonly string[]): Promise<SessionListRow[]>;
  /** Sessions split from or delegated by `sessionId`, oldest first. */
  childSessions(
    sessionId: string,
    limit?: number,
  ): Promise<{ id: string; title: string | null; source: string }[]>;
  /** A session's nodes in the order they were stored, after `afterSeq`. */
  nodesPage(sessionId: string, afterSeq: number, limit: number): Promise<NodeRow[]>;
  /** Ids of the session's nodes with more than one child: where its branches fork. */
  forkPoints(sessionId: string): Promise<Set<string>>;
  /** The tips of the session's branches, oldest first. */
  branchTips(sessionId: string): Promise<BranchTip[]>;
  /** Ids starting with `prefix` (at most `limit`, default 2). */
  sessionIdsWithPrefix(prefix: string, limit?: number): Promise<string[]>;
  /** Live session leases: one per running turn (SPEC D1). */
  runningTurns(
    now: number,
    limit?: number,
  ): Promise<{ sessionId: string; pid: number; acquiredAt: number }[]>;
}

/**
 * The board of waiting questions: a process asking for an approval or a clarification publishes
 * it, the dashboard (another process, maybe another machine) answers it by id, the first answer wins.
 */
export interface AskBoard {
  publish(ask: {
    id: string;
    sessionId: string;
    kind: AskKind;
    source: string;
    question: unknown;
  }): Promise<void>;
  /** Settles a waiting ask; false when it was already answered or withdrawn (or never existed). */
  answer(id: string, answer: string, by: string): Promise<boolean>;
  /** The asker no longer waits. */
  withdraw(id: string): Promise<boolean>;
  get(id: string): Promise<AskRow | undefined>;
  /** Waiting asks, oldest first. */
  waiting(limit?: number): Promise<AskRow[]>;
  /** A session's asks, oldest first, however they were settled. */
  forSession(sessionId: string, limit?: number): Promise<AskRow[]>;
  forgetSession(sessionId: string): Promise<void>;
  /** Withdraws the waiting asks of this machine's processes that are gone; returns how many. */
  withdrawOrphans(isAlive: (pid: number) => boolean): Promise<number>;
  /** A running dashboard says so every few seconds. */
  touchPresence(now?: number): Promise<void>;
  presenceSeenAt(): Promise<number | undefined>;
  clearPresence(): Promise<void>;
}

/** Each gateway platform's health as the gateway last recorded it (the dashboard shows it). */
export interface PlatformHealth {
  /** Records the state; a state without an error keeps the last error seen. */
  set(platform: string, state: PlatformState, error?: string, now?: number): Promise<void>;
  list(): Promise<PlatformHealthRow[]>;
}

/** What each running process's MCP servers are doing, for the dashboard in another process. */
export interface McpStates {
  /** Replaces `owner`'s rows with `servers` (a server no longer configured goes). */
  record(
    owner: { platform: string; pid: number; startedAt: number },
    servers: McpStateInput[],
    now?: number,
  ): Promise<void>;
  /** Removes this machine's rows of a process that is closing. */
  clear(platform: string, pid: number): Promise<void>;
  list(): Promise<McpStateRow[]>;
}

/** The pages the web tools have read (the `local` search backend), newest WEB_PAGES_KEPT. */
export interface WebPages {
  /** Stores a page read now (a page read again replaces its older copy). */
  put(page: WebPageInput, now?: number): Promise<void>;
  /** The best `limit` pages holding any of `terms`; terms are words, never query syntax. */
  search(terms: string[], limit: number): Promise<WebPageHit[]>;
  count(): Promise<number>;
}

/** The dashboard's reads and the tables it shares with every process. */
export interface DashboardState {
  reads: DashboardReads;
  asks: AskBoard;
  health: PlatformHealth;
}

/** State every process of the profile shares with the dashboard, kept on each engine. */
export interface SharedStates {
  readonly dashboard: DashboardState;
  /** Each running process's MCP server states (the dashboard reads them). */
  readonly mcpStates: McpStates;
  /** The pages the web tools read (the local search backend). */
  readonly webPages: WebPages;
}

/** The conversation state of one profile, on one engine. */
export interface ConversationStore extends SessionState, NodeTreeState, SearchState, UsageState, EffectState {
  readonly backend: StoreBackend;
  /** Opened for reading only: nothing may be written through it. */
  readonly isReadonly: boolean;
  readonly leases: LeaseState;
  readonly routeCooldowns: CooldownState;
  readonly activeTime: ActiveTimeState;
  /** The schema version the engine holds now and the newest this Iris knows (after a migrate: equal). */
  schemaVersion(): Promise<{ version: number; latest: number }>;
  /** Ends background work and closes the connection(s). */
  close(): Promise<void>;
}

/**
 * Everything a profile keeps: the conversations, the state every process shares with the
 * dashboard and the front ends' own table sets (TableHost: tables/table-set.ts).
 */
export interface Store extends ConversationStore, SharedStates, TableHost {}
