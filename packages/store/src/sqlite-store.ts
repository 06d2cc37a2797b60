// The SQLite engine behind the async state interface (state.ts): each call runs the synchronous
// engine (store.ts) at once and hands back a settled promise, so the default store keeps its
// speed and its transactions stay inside this package. A throw becomes a rejection, as it would
// be on an engine across a network.
import type { Message } from "@iris/llm";
import type { CheckpointerState } from "./checkpointer.js";
import type { CompactionExpansion } from "./compaction.js";
import type { Database } from "./driver.js";
import type { EffectSnapshotRow } from "./effect-snapshots.js";
import type { BeginEffectInput, BeginEffectResult, EffectRow } from "./effects.js";
import { schemaVersion } from "./migrate.js";
import { LATEST_SCHEMA_VERSION } from "./migrations/index.js";
import type { NodeInput } from "./nodes.js";
import { promised } from "./promised.js";
import type { NodeRow, SessionRow } from "./rows.js";
import type { SearchHit, SearchOptions } from "./search.js";
import type { CreateSessionInput, ListSessionsOptions, SessionPageOptions } from "./sessions.js";
import type {
  ActiveTimeState,
  CooldownState,
  DashboardState,
  LeaseState,
  McpStates,
  StartSessionInput,
  Store,
  StoreBackend,
  WebPages,
} from "./state.js";
import { type OpenStoreOptions, openSqliteEngine, type SqliteEngine } from "./store.js";
import { migrateSqliteTables, sqliteTables, sqliteTablesVersion } from "./tables/sqlite-tables.js";
import type { SqliteTables, TableSet, TableSetVersion } from "./tables/table-set.js";
import type { UsageInput, UsageRow } from "./usage.js";

/** Opens (creating and migrating as needed) the SQLite store at `path`. */
export function openStore(path: string, options: OpenStoreOptions = {}): SqliteStore {
  return new SqliteStore(openSqliteEngine(path, options));
}

export class SqliteStore implements Store {
  readonly backend: StoreBackend = "sqlite";
  readonly leases: LeaseState;
  readonly routeCooldowns: CooldownState;
  readonly activeTime: ActiveTimeState;

  constructor(readonly engine: SqliteEngine) {
    this.leases = promised(engine.leases);
    this.routeCooldowns = promised(engine.routeCooldowns);
    this.activeTime = promised(engine.activeTime);
  }

  /** The database handle, for tests that look at the file itself (check-arch keeps it out of code). */
  get db(): Database {
    return this.engine.db;
  }
  get isReadonly(): boolean {
    return this.engine.isReadonly;
  }
  /** Whether WAL checkpoints run on a worker thread. */
  get checkpointing(): CheckpointerState {
    return this.engine.checkpointing;
  }

  async close(): Promise<void> {
    this.engine.close();
  }

  async schemaVersion(): Promise<{ version: number; latest: number }> {
    return { version: schemaVersion(this.engine.db), latest: LATEST_SCHEMA_VERSION };
  }

  // Front ends' own table sets: one port over the engine's connection, made on first use.
  private tables: SqliteTables | undefined;
  async openTables(set: TableSet): Promise<SqliteTables> {
    migrateSqliteTables(this.engine.db, set, this.engine.db.name, this.engine.isReadonly);
    this.tables ??= sqliteTables(this.engine.db);
    return this.tables;
  }
  async tablesVersion(set: TableSet): Promise<TableSetVersion> {
    return sqliteTablesVersion(this.engine.db, set);
  }

  // Shared state, each made on first use.
  private shared: { dashboard?: DashboardState; mcpStates?: McpStates; webPages?: WebPages } = {};
  get dashboard(): DashboardState {
    if (!this.shared.dashboard) {
      const d = this.engine.dashboard;
      this.shared.dashboard = {
        reads: promised(d.reads),
        asks: promised(d.asks),
        health: promised(d.health),
      };
    }
    return this.shared.dashboard;
  }
  get mcpStates(): McpStates {
    this.shared.mcpStates ??= promised(this.engine.mcpStates);
    return this.shared.mcpStates;
  }
  get webPages(): WebPages {
    this.shared.webPages ??= promised(this.engine.webPages);
    return this.shared.webPages;
  }

  // Sessions
  async createSession(input: CreateSessionInput): Promise<SessionRow> {
    return this.engine.createSession(input);
  }
  async startSession(input: StartSessionInput): Promise<SessionRow> {
    const e = this.engine;
    return e.atomically(() => {
      const row = e.createSession(input.session);
      if (input.nodes && input.nodes.length > 0) e.appendNodes(row.id, input.nodes);
      if (input.ends) e.endSession(input.ends.sessionId, input.ends.reason);
      return e.getSession(row.id);
    });
  }
  async getSession(id: string): Promise<SessionRow> {
    return this.engine.getSession(id);
  }
  async findSession(id: string): Promise<SessionRow | undefined> {
    return this.engine.findSession(id);
  }
  async listSessions(options?: ListSessionsOptions): Promise<SessionRow[]> {
    return this.engine.listSessions(options);
  }
  async sessionPage(options: SessionPageOptions): Promise<SessionRow[]> {
    return this.engine.sessionPage(options);
  }
  async sessionsWithPrefix(prefix: string, limit?: number): Promise<SessionRow[]> {
    return this.engine.sessionsWithPrefix(prefix, limit);
  }
  async sessionsWithTail(tail: string, limit?: number): Promise<SessionRow[]> {
    return this.engine.sessionsWithTail(tail, limit);
  }
  async sessionsWithShortIdPrefix(prefix: string, limit?: number): Promise<SessionRow[]> {
    return this.engine.sessionsWithShortIdPrefix(prefix, limit);
  }
  async childSessions(parentId: string): Promise<SessionRow[]> {
    return this.engine.childSessions(parentId);
  }
  async endSession(id: string, reason: string): Promise<SessionRow> {
    return this.engine.endSession(id, reason);
  }
  async setSystemPrompt(id: string, text: string): Promise<void> {
    this.engine.setSystemPrompt(id, text);
  }
  async setSessionModel(id: string, model: string, provider: string): Promise<void> {
    this.engine.setSessionModel(id, model, provider);
  }
  async setSessionTitle(id: string, title: string): Promise<void> {
    this.engine.setSessionTitle(id, title);
  }
  async deleteSession(id: string): Promise<void> {
    this.engine.deleteSession(id);
  }

  // The node tree
  async appendNode(sessionId: string, input: NodeInput): Promise<NodeRow> {
    return this.engine.appendNode(sessionId, input);
  }
  async appendNodes(sessionId: string, inputs: readonly NodeInput[]): Promise<NodeRow[]> {
    return this.engine.appendNodes(sessionId, inputs);
  }
  async getNode(id: string): Promise<NodeRow> {
    return this.engine.getNode(id);
  }
  async findNode(id: string): Promise<NodeRow | undefined> {
    return this.engine.findNode(id);
  }
  async pathToRoot(leafId: string): Promise<NodeRow[]> {
    return this.engine.pathToRoot(leafId);
  }
  async activePath(sessionId: string): Promise<NodeRow[]> {
    return this.engine.activePath(sessionId);
  }
  async activeLeaf(sessionId: string): Promise<NodeRow | null> {
    return this.engine.activeLeaf(sessionId);
  }
  async setActiveLeaf(sessionId: string, nodeId: string): Promise<void> {
    this.engine.setActiveLeaf(sessionId, nodeId);
  }
  async clearActiveLeaf(sessionId: string): Promise<void> {
    this.engine.clearActiveLeaf(sessionId);
  }
  async branchFrom(nodeId: string): Promise<NodeRow> {
    return this.engine.branchFrom(nodeId);
  }
  async editUserMessage(nodeId: string, newMessage: Message): Promise<NodeRow> {
    return this.engine.editUserMessage(nodeId, newMessage);
  }
  async branchPage(
    sessionId: string,
    leafId: string,
    afterSeq: number,
    limit: number,
  ): Promise<NodeRow[] | undefined> {
    return this.engine.branchPage(sessionId, leafId, afterSeq, limit);
  }
  async listBranches(sessionId: string): Promise<NodeRow[]> {
    return this.engine.listBranches(sessionId);
  }
  async expandCompaction(nodeId: string): Promise<CompactionExpansion> {
    return this.engine.expandCompaction(nodeId);
  }

  // Search
  async search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.engine.search(query, options);
  }
  async rebuildSearchIndex(): Promise<void> {
    this.engine.rebuildSearchIndex();
  }
  async catchUpSearchIndex(): Promise<number> {
    return this.engine.catchUpSearchIndex();
  }
  async searchIndexBacklog(): Promise<number> {
    return this.engine.searchIndexBacklog();
  }

  // Usage
  async recordUsage(input: UsageInput): Promise<UsageRow> {
    return this.engine.recordUsage(input);
  }
  async sessionCostWithChildrenUsd(sessionId: string): Promise<number> {
    return this.engine.sessionCostWithChildrenUsd(sessionId);
  }
  async usageForSession(sessionId: string): Promise<UsageRow[]> {
    return this.engine.usageForSession(sessionId);
  }

  // Effect receipts
  async beginEffect(input: BeginEffectInput): Promise<BeginEffectResult> {
    return this.engine.beginEffect(input);
  }
  async getEffect(id: string): Promise<EffectRow> {
    return this.engine.getEffect(id);
  }
  async completeEffect(id: string, result: unknown): Promise<EffectRow> {
    return this.engine.completeEffect(id, result);
  }
  async failEffect(id: string, error: string): Promise<EffectRow> {
    return this.engine.failEffect(id, error);
  }
  async findEffectByOp(logicalOpId: string): Promise<EffectRow | undefined> {
    return this.engine.findEffectByOp(logicalOpId);
  }
  async findEffect(idOrPrefix: string): Promise<EffectRow | undefined> {
    return this.engine.findEffect(idOrPrefix);
  }
  async listEffects(limit?: number): Promise<EffectRow[]> {
    return this.engine.listEffects(limit);
  }
  async listUnresolved(sessionId?: string): Promise<EffectRow[]> {
    return this.engine.listUnresolved(sessionId);
  }
  async resolveEffect(id: string, outcome: "applied" | "not_applied", evidence: string): Promise<EffectRow> {
    return this.engine.resolveEffect(id, outcome, evidence);
  }
  async fileSnapshots(nodeIds: readonly string[]): Promise<EffectSnapshotRow[]> {
    return this.engine.fileSnapshots(nodeIds);
  }
}
