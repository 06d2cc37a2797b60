// The SQLite engine of one profile, synchronous: one file (state.db) in WAL mode, one writer at a
// time. The rest of Iris reaches it through the async state interface (state.ts, sqlite-store.ts);
// its own tests use it directly.
import { chmodSync, closeSync, openSync, statSync } from "node:fs";
import type { Message } from "@iris/llm";
import { ActiveTimeRepo } from "./active-time.js";
import { BranchPages } from "./branch-page.js";
import { Checkpointer, type CheckpointerState } from "./checkpointer.js";
import { type CompactionExpansion, expandCompaction } from "./compaction.js";
import { AskBoard } from "./dashboard-asks.js";
import { DashboardReads } from "./dashboard-reads.js";
import { deleteSession } from "./delete-session.js";
import { type Database, openDatabase } from "./driver.js";
import type { EffectSnapshotRow } from "./effect-snapshots.js";
import { type BeginEffectInput, type BeginEffectResult, EffectRepo, type EffectRow } from "./effects.js";
import { StoreError } from "./errors.js";
import { McpStates } from "./mcp-state.js";
import { assertNotNewer, migrate, schemaVersion } from "./migrate.js";
import { LATEST_SCHEMA_VERSION } from "./migrations/index.js";
import { type NodeInput, NodeRepo } from "./nodes.js";
import { explainOpenError } from "./open-errors.js";
import { PlatformHealth } from "./platform-health.js";
import { openReadonlyDb } from "./readonly-open.js";
import { RouteCooldownRepo } from "./route-cooldowns.js";
import type { NodeRow, SessionRow } from "./rows.js";
import { NodeSearch, SEARCH_CATCH_UP_SPAN, type SearchHit, type SearchOptions } from "./search.js";
import { SearchIndexer } from "./search-index.js";
import { SessionLeaseRepo } from "./session-leases.js";
import {
  type CreateSessionInput,
  type ListSessionsOptions,
  type SessionPageOptions,
  SessionRepo,
} from "./sessions.js";
import { type UsageInput, UsageRepo, type UsageRow } from "./usage.js";
import { WebPages } from "./web-pages.js";

/**
 * The bound on every store call on a turn's path (appends, usage, leases, cooldowns): a write
 * waits at most this long for another connection's write lock, then fails with SQLITE_BUSY (the
 * turn ends `store_error`, its transaction rolled back). Reads never wait (WAL), and a search's
 * own index catch-up does not wait at all. Nothing else in a store call blocks.
 */
export const STORE_BUSY_TIMEOUT_MS = 5000;

export interface OpenStoreOptions {
  /** How long a writer waits for another connection's write lock, in ms (STORE_BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
  /** How long after an append the background indexer runs, in ms (default 1000). */
  indexDelayMs?: number;
  /**
   * Open for reading only (a read-only home still lets `sessions list`, `usage`, `context` read):
   * nothing is written, so no migration runs; a file that needs one is refused with a message.
   */
  readonly?: boolean;
}

/** Seq numbers per background indexing transaction: short write locks, yielding in between. */
const INDEX_BATCH = 2000;

export function openSqliteEngine(path: string, options: OpenStoreOptions = {}): SqliteEngine {
  try {
    return options.readonly ? openReadonly(path) : openWritable(path, options);
  } catch (err) {
    throw explainOpenError(err, path);
  }
}

function openReadonly(path: string): SqliteEngine {
  const { db, cleanup } = openReadonlyDb(path);
  try {
    assertNotNewer(db, path);
    if (schemaVersion(db) < LATEST_SCHEMA_VERSION)
      throw new StoreError(
        "db_needs_upgrade",
        `${path} was written by an older Iris and must be upgraded, which needs write access: run iris once as a user who may write ${path}`,
      );
    const store = new SqliteEngine(db);
    store.onClose = cleanup;
    return store;
  } catch (error) {
    db.close();
    cleanup();
    throw error;
  }
}

function openWritable(path: string, options: OpenStoreOptions): SqliteEngine {
  const busy = options.busyTimeoutMs ?? STORE_BUSY_TIMEOUT_MS;
  createPrivately(path);
  const db = openDatabase(path, { timeout: busy });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busy))}`);
    // Checked before any pragma or migration that would write to the file.
    assertNotNewer(db, path);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    migrate(db);
    db.pragma("foreign_keys = ON");
    return new SqliteEngine(db, options.indexDelayMs);
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A new state.db is created empty with mode 600 before SQLite opens it: SQLite would create it
 * with the umask's 644, and its -wal and -shm files copy the database file's mode. One that an
 * older Iris (or a copy) left readable by others is made private again, if it is ours.
 */
function createPrivately(path: string): void {
  if (path === ":memory:" || path === "") return;
  try {
    closeSync(openSync(path, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    for (const file of [path, `${path}-wal`, `${path}-shm`]) tightenMode(file);
  }
}

function tightenMode(file: string): void {
  try {
    const st = statSync(file);
    if (st.isFile() && st.mode & 0o077 && st.uid === process.getuid?.()) chmodSync(file, 0o600);
  } catch {
    // Gone, or not ours to change: the open below reports what matters.
  }
}

export class SqliteEngine {
  private readonly sessions: SessionRepo;
  private readonly nodes: NodeRepo;
  private readonly finder: NodeSearch;
  private readonly indexer: SearchIndexer;
  private readonly usage: UsageRepo;
  private readonly effects: EffectRepo;
  private readonly checkpointer: Checkpointer;
  /** The background search indexer's next run, while one is due. */
  private indexTimer: NodeJS.Timeout | undefined;
  /** Time the agent worked per session (the session budget counts it, SPEC L4). */
  readonly activeTime: ActiveTimeRepo;
  /** Route cooldowns shared by every process of the profile (SPEC U4). */
  readonly routeCooldowns: RouteCooldownRepo;
  /** One live turn per session (SPEC D1, H1). */
  readonly leases: SessionLeaseRepo;

  constructor(
    readonly db: Database,
    private readonly indexDelayMs = 1000,
  ) {
    this.sessions = new SessionRepo(db);
    this.nodes = new NodeRepo(db);
    this.indexer = new SearchIndexer(db);
    this.finder = new NodeSearch(db, this.indexer);
    this.usage = new UsageRepo(db);
    this.effects = new EffectRepo(db, this.nodes);
    this.checkpointer = new Checkpointer(db);
    this.activeTime = new ActiveTimeRepo(db);
    this.routeCooldowns = new RouteCooldownRepo(db);
    this.leases = new SessionLeaseRepo(db);
  }

  private dashboardRepos: { reads: DashboardReads; asks: AskBoard; health: PlatformHealth } | undefined;
  /** The dashboard's reads and its tables (ask board, platform health), made on first use. */
  get dashboard(): { reads: DashboardReads; asks: AskBoard; health: PlatformHealth } {
    this.dashboardRepos ??= {
      reads: new DashboardReads(this.db),
      asks: new AskBoard(this.db),
      health: new PlatformHealth(this.db),
    };
    return this.dashboardRepos;
  }
  /** Opened read-only (a snapshot for listings): nothing may be written through it. */
  get isReadonly(): boolean {
    return this.db.readonly;
  }
  private mcpStatesRepo: McpStates | undefined;
  private webPagesRepo: WebPages | undefined;
  /** Each running process's MCP server states (the dashboard reads them), made on first use. */
  get mcpStates(): McpStates {
    this.mcpStatesRepo ??= new McpStates(this.db);
    return this.mcpStatesRepo;
  }
  /** The pages the web tools read (the local search backend), made on first use. */
  get webPages(): WebPages {
    this.webPagesRepo ??= new WebPages(this.db);
    return this.webPagesRepo;
  }

  /** Runs after the database is closed (a read-only snapshot removes itself). */
  onClose: (() => void) | undefined;

  close(): void {
    clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    this.checkpointer.close();
    if (this.db.open) this.db.close();
    this.onClose?.();
    this.onClose = undefined;
  }

  /**
   * Search indexing off the request path: a while after appends, the backlog is indexed in short
   * batches, yielding to the event loop between them; a quiet store schedules nothing.
   */
  private scheduleIndexing(delayMs = this.indexDelayMs): void {
    if (this.indexTimer || !this.db.open) return;
    this.indexTimer = setTimeout(() => {
      this.indexTimer = undefined;
      if (!this.db.open) return;
      try {
        this.indexer.catchUp(INDEX_BATCH);
        if (this.indexer.pending() > 0) this.scheduleIndexing(0);
      } catch {
        // Busy (another process writes) or closing: try again later; search() catches up too.
        this.scheduleIndexing();
      }
    }, delayMs);
    this.indexTimer.unref();
  }

  /** Whether WAL checkpoints run on a worker thread (checkpointer.ts). */
  get checkpointing(): CheckpointerState {
    return this.checkpointer.state;
  }

  // Sessions
  createSession(input: CreateSessionInput): SessionRow {
    return this.sessions.create(input);
  }
  getSession(id: string): SessionRow {
    return this.sessions.get(id);
  }
  findSession(id: string): SessionRow | undefined {
    return this.sessions.find(id);
  }
  listSessions(options?: ListSessionsOptions): SessionRow[] {
    return this.sessions.list(options);
  }
  /** One page of a source's sessions, newest first, filtered by folder and end reason. */
  sessionPage(options: SessionPageOptions): SessionRow[] {
    return this.sessions.page(options);
  }
  /** Sessions whose id starts with `prefix` (an indexed range; at most `limit`). */
  sessionsWithPrefix(prefix: string, limit = 10): SessionRow[] {
    return prefix ? this.sessions.withPrefix(prefix, limit) : [];
  }
  /** Sessions whose id ends with `tail`, 6+ characters (a short id; indexed). */
  sessionsWithTail(tail: string, limit = 10): SessionRow[] {
    return this.sessions.withTail(tail, limit);
  }
  /** Sessions whose short id starts with `prefix` (`--resume 9be1`; an indexed range). */
  sessionsWithShortIdPrefix(prefix: string, limit = 10): SessionRow[] {
    return this.sessions.withShortIdPrefix(prefix, limit);
  }
  /** Sessions started from `parentId`: a compression's child, subagents (indexed), newest first. */
  childSessions(parentId: string): SessionRow[] {
    return this.sessions.children(parentId);
  }
  /**
   * Runs `fn` in one write transaction (taken at once, so two writers queue instead of failing on
   * upgrade): every store call inside it lands together or not at all.
   */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
  /** Ends the session and indexes its newest nodes for search (one short batch; the rest later). */
  endSession(id: string, reason: string): SessionRow {
    const row = this.sessions.endSession(id, reason);
    this.indexer.catchUp(SEARCH_CATCH_UP_SPAN);
    this.scheduleIndexing();
    return row;
  }
  setSystemPrompt(id: string, text: string): void {
    this.sessions.setSystemPrompt(id, text);
  }
  setSessionModel(id: string, model: string, provider: string): void {
    this.sessions.setModel(id, model, provider);
  }
  setSessionTitle(id: string, title: string): void {
    this.sessions.setTitle(id, title);
  }
  /** Removes the session and everything stored for it; refused while another session builds on it. */
  deleteSession(id: string): void {
    deleteSession(this.db, id);
  }

  // The node tree
  appendNode(sessionId: string, input: NodeInput): NodeRow {
    const [row] = this.appendNodes(sessionId, [input]);
    if (!row) throw new StoreError("invalid_input", "appendNode stored nothing");
    return row;
  }
  /** A whole round (assistant + tool results) in one transaction, chained after the active leaf. */
  appendNodes(sessionId: string, inputs: readonly NodeInput[]): NodeRow[] {
    const rows = this.nodes.append(sessionId, inputs);
    this.checkpointer.afterAppend();
    this.scheduleIndexing();
    return rows;
  }
  getNode(id: string): NodeRow {
    return this.nodes.get(id);
  }
  findNode(id: string): NodeRow | undefined {
    return this.nodes.find(id);
  }
  pathToRoot(leafId: string): NodeRow[] {
    return this.nodes.pathToRoot(leafId);
  }
  /** The active path of a session, root first ([] for a session with no nodes). */
  activePath(sessionId: string): NodeRow[] {
    const leaf = this.nodes.activeLeafId(sessionId);
    return leaf === null ? [] : this.nodes.pathToRoot(leaf);
  }
  activeLeaf(sessionId: string): NodeRow | null {
    const leaf = this.nodes.activeLeafId(sessionId);
    return leaf === null ? null : this.nodes.get(leaf);
  }
  setActiveLeaf(sessionId: string, nodeId: string): void {
    this.nodes.setActiveLeaf(sessionId, nodeId);
  }
  /** Start the conversation over: the active path is empty; earlier nodes stay in the store. */
  clearActiveLeaf(sessionId: string): void {
    this.nodes.clearActiveLeaf(sessionId);
  }
  /** Continue the conversation from `nodeId`: the next append becomes a new branch below it. */
  branchFrom(nodeId: string): NodeRow {
    const node = this.nodes.get(nodeId);
    this.nodes.setActiveLeaf(node.sessionId, node.id);
    return node;
  }
  /** Stores an edited user message as a sibling of the original; the old branch stays readable. */
  editUserMessage(nodeId: string, newMessage: Message): NodeRow {
    const original = this.nodes.get(nodeId);
    if (original.kind !== "message" || original.role !== "user") {
      throw new StoreError("invalid_input", `node ${nodeId} is not a user message; only those can be edited`);
    }
    if (newMessage?.role !== "user") {
      throw new StoreError("invalid_input", "an edited user message must have role 'user'");
    }
    return this.appendNode(original.sessionId, {
      parentId: original.parentId,
      kind: "message",
      message: newMessage,
    });
  }
  private branchPages: BranchPages | undefined;
  /** One page of the path from the root to `leafId` (undefined: no such node in the session). */
  branchPage(sessionId: string, leafId: string, afterSeq: number, limit: number): NodeRow[] | undefined {
    this.branchPages ??= new BranchPages(this.db);
    return this.branchPages.page(sessionId, leafId, afterSeq, limit);
  }
  /** The tips of every branch of the session, oldest first. */
  listBranches(sessionId: string): NodeRow[] {
    return this.nodes.listLeaves(sessionId);
  }
  expandCompaction(nodeId: string): Promise<CompactionExpansion> {
    const node = this.nodes.get(nodeId);
    if (node.kind !== "compaction")
      throw new StoreError("invalid_input", `node ${nodeId} is not a compaction`);
    return expandCompaction(this.nodes, node);
  }

  // Search
  search(query: string, options?: SearchOptions): SearchHit[] {
    return this.finder.search(query, options);
  }
  rebuildSearchIndex(): void {
    this.indexer.rebuild();
  }
  /**
   * Indexes every node appended since the last catch-up (the background indexer and search() do
   * this in short batches); for a repair or a bulk import. Returns the seq span indexed.
   */
  catchUpSearchIndex(): number {
    return this.indexer.catchUp();
  }
  /** An upper bound on the nodes not yet in the search indexes. */
  searchIndexBacklog(): number {
    return this.indexer.pending();
  }

  // Usage
  recordUsage(input: UsageInput): UsageRow {
    return this.usage.record(input);
  }
  /**
   * What a session cost with its subagents' sessions (source "delegate", at any depth): a child's
   * spending counts against its parent's session budget (SPEC L10).
   */
  sessionCostWithChildrenUsd(sessionId: string): number {
    const row = this.db
      .prepare(
        "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT s.id FROM sessions s JOIN tree t " +
          "ON s.parent_session_id = t.id WHERE s.source = 'delegate') " +
          "SELECT COALESCE(SUM(cost_usd), 0) AS cost FROM sessions WHERE id IN (SELECT id FROM tree)",
      )
      .get(sessionId) as { cost: number };
    return row.cost;
  }

  usageForSession(sessionId: string): UsageRow[] {
    return this.usage.forSession(sessionId);
  }

  // Effect receipts
  beginEffect(input: BeginEffectInput): BeginEffectResult {
    return this.effects.begin(input);
  }
  getEffect(id: string): EffectRow {
    return this.effects.get(id);
  }
  completeEffect(id: string, result: unknown): EffectRow {
    return this.effects.complete(id, result);
  }
  failEffect(id: string, error: string): EffectRow {
    return this.effects.fail(id, error);
  }
  findEffectByOp(logicalOpId: string): EffectRow | undefined {
    return this.effects.findByOp(logicalOpId);
  }
  findEffect(idOrPrefix: string): EffectRow | undefined {
    return this.effects.findByIdOrPrefix(idOrPrefix);
  }
  listEffects(limit = 1000): EffectRow[] {
    return this.effects.listRecent(limit);
  }
  listUnresolved(sessionId?: string): EffectRow[] {
    return this.effects.listUnresolved(sessionId);
  }
  resolveEffect(id: string, outcome: "applied" | "not_applied", evidence: string): EffectRow {
    return this.effects.resolve(id, outcome, evidence);
  }
  /** The files receipted calls anchored on `nodeIds` wrote, as they were before (newest call first). */
  fileSnapshots(nodeIds: readonly string[]): EffectSnapshotRow[] {
    return this.effects.snapshots.onAnchors(nodeIds);
  }
}
