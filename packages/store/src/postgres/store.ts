// The Postgres engine behind the state interface (state.ts): one schema of one database shared by
// any number of processes on any number of machines. Every write that must land together is one
// transaction here; reads go straight to the pool. Front ends' table sets are migrated and reached
// through tables.ts.
import type { Message } from "@iris/llm";
import { type CompactionExpansion, expandCompaction } from "../compaction.js";
import type { EffectSnapshotRow } from "../effect-snapshots.js";
import type { BeginEffectInput, BeginEffectResult, EffectRow } from "../effects.js";
import { StoreError } from "../errors.js";
import type { NodeInput } from "../nodes.js";
import type { NodeRow, SessionRow } from "../rows.js";
import type { SearchHit, SearchOptions } from "../search.js";
import type { CreateSessionInput, ListSessionsOptions, SessionPageOptions } from "../sessions.js";
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
} from "../state.js";
import type { PostgresTables, TableSet, TableSetVersion } from "../tables/table-set.js";
import type { UsageInput, UsageRow } from "../usage.js";
import { requireString } from "../validate.js";
import { pgDashboardReads } from "./dashboard-reads.js";
import { pgAskBoard, pgPlatformHealth } from "./dashboard-tables.js";
import * as fx from "./effects.js";
import { describeServer, pgError } from "./errors.js";
import { pgMcpStates, pgWebPages } from "./mcp-web.js";
import { migratePostgres, PG_LATEST_VERSION, pgSchemaVersion } from "./migrations.js";
import * as nodes from "./nodes.js";
import { inTransaction, openPool, type Pool, type PostgresOptions } from "./pool.js";
import { searchNodes } from "./search.js";
import { pgActiveTime, pgCooldowns, pgLeases } from "./session-extras.js";
import * as sessions from "./sessions.js";
import { type LockSessions, migratePgTables, pgTables, pgTablesVersion } from "./tables.js";
import { recordUsage, usageForSession } from "./usage.js";

/** Connects, migrates the schema when needed (advisory lock: safe from several processes), opens. */
export async function openPostgresStore(options: PostgresOptions): Promise<PostgresStore> {
  const { pool, schema } = await openPool(options);
  try {
    await migratePostgres(pool, schema).catch((err) => {
      throw pgError(err, describeServer(options.url));
    });
    return new PostgresStore(pool, schema, describeServer(options.url));
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}

export class PostgresStore implements Store {
  readonly backend: StoreBackend = "postgres";
  readonly isReadonly = false;
  readonly leases: LeaseState;
  readonly routeCooldowns: CooldownState;
  readonly activeTime: ActiveTimeState;
  readonly dashboard: DashboardState;
  readonly mcpStates: McpStates;
  readonly webPages: WebPages;

  constructor(
    readonly pool: Pool,
    readonly schema: string,
    /** user@host:port/database, never the password. */
    readonly server: string,
  ) {
    this.leases = this.guarded(pgLeases(pool));
    this.routeCooldowns = this.guarded(pgCooldowns(pool));
    this.activeTime = this.guarded(pgActiveTime(pool));
    this.dashboard = {
      reads: this.guarded(pgDashboardReads(pool)),
      asks: this.guarded(pgAskBoard(pool)),
      health: this.guarded(pgPlatformHealth(pool)),
    };
    this.mcpStates = this.guarded(pgMcpStates(pool));
    this.webPages = this.guarded(pgWebPages(pool));
  }

  async close(): Promise<void> {
    // A held lock's connection is out of the pool: it ends with the store (the lock goes with it).
    for (const drop of this.lockSessions) drop();
    await this.pool.end();
  }

  async schemaVersion(): Promise<{ version: number; latest: number }> {
    return {
      version: await this.run(() => pgSchemaVersion(this.pool, this.schema)),
      latest: PG_LATEST_VERSION,
    };
  }

  /** A driver error becomes a StoreError naming the server (never its password). */
  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw pgError(err, this.server);
    }
  }

  private tx<T>(fn: (db: import("./pool.js").PoolClient) => Promise<T>): Promise<T> {
    return this.run(() => inTransaction(this.pool, fn));
  }

  private guarded<T extends object>(repo: T): T {
    const out = {} as Record<string, unknown>;
    for (const [name, fn] of Object.entries(repo))
      out[name] = (...args: unknown[]) =>
        this.run(() => (fn as (...a: unknown[]) => Promise<unknown>)(...args));
    return out as T;
  }

  // Front ends' own table sets (tables/table-set.ts).
  private tables: PostgresTables | undefined;
  private readonly lockSessions: LockSessions = new Set();
  async openTables(set: TableSet): Promise<PostgresTables> {
    await this.run(() => migratePgTables(this.pool, this.schema, set));
    this.tables ??= pgTables(this.pool, this.server, this.schema, this.lockSessions);
    return this.tables;
  }
  tablesVersion(set: TableSet): Promise<TableSetVersion> {
    return this.run(() => pgTablesVersion(this.pool, this.schema, set));
  }

  // Sessions
  createSession(input: CreateSessionInput): Promise<SessionRow> {
    return this.run(() => sessions.createSession(this.pool, input));
  }
  startSession(input: StartSessionInput): Promise<SessionRow> {
    return this.tx(async (db) => {
      const row = await sessions.createSession(db, input.session);
      if (input.nodes?.length) await nodes.appendNodes(db, row.id, input.nodes);
      if (input.ends) await sessions.endSession(db, input.ends.sessionId, input.ends.reason);
      return sessions.getSession(db, row.id);
    });
  }
  getSession(id: string): Promise<SessionRow> {
    return this.run(() => sessions.getSession(this.pool, id));
  }
  findSession(id: string): Promise<SessionRow | undefined> {
    return this.run(() => sessions.findSession(this.pool, id));
  }
  listSessions(options?: ListSessionsOptions): Promise<SessionRow[]> {
    return this.run(() => sessions.listSessions(this.pool, options));
  }
  sessionPage(options: SessionPageOptions): Promise<SessionRow[]> {
    return this.run(() => sessions.sessionPage(this.pool, options));
  }
  sessionsWithPrefix(prefix: string, limit = 10): Promise<SessionRow[]> {
    return this.run(() => sessions.sessionsWithPrefix(this.pool, prefix, limit));
  }
  sessionsWithTail(tail: string, limit = 10): Promise<SessionRow[]> {
    return this.run(() => sessions.sessionsWithTail(this.pool, tail, limit));
  }
  sessionsWithShortIdPrefix(prefix: string, limit = 10): Promise<SessionRow[]> {
    return this.run(() => sessions.sessionsWithShortIdPrefix(this.pool, prefix, limit));
  }
  childSessions(parentId: string): Promise<SessionRow[]> {
    return this.run(() => sessions.childSessions(this.pool, parentId));
  }
  endSession(id: string, reason: string): Promise<SessionRow> {
    return this.run(() => sessions.endSession(this.pool, id, reason));
  }
  setSystemPrompt(id: string, text: string): Promise<void> {
    return this.run(() =>
      sessions.updateSession(this.pool, id, { system_prompt: requireString(text, "system prompt") }),
    );
  }
  setSessionModel(id: string, model: string, provider: string): Promise<void> {
    return this.run(() =>
      sessions.updateSession(this.pool, id, {
        model: requireString(model, "model"),
        provider: requireString(provider, "provider"),
      }),
    );
  }
  setSessionTitle(id: string, title: string): Promise<void> {
    return this.run(() => sessions.updateSession(this.pool, id, { title: requireString(title, "title") }));
  }
  deleteSession(id: string): Promise<void> {
    return this.tx((db) => sessions.deleteSession(db, id));
  }

  // The node tree
  async appendNode(sessionId: string, input: NodeInput): Promise<NodeRow> {
    const [row] = await this.appendNodes(sessionId, [input]);
    if (!row) throw new StoreError("invalid_input", "appendNode stored nothing");
    return row;
  }
  appendNodes(sessionId: string, inputs: readonly NodeInput[]): Promise<NodeRow[]> {
    return this.tx((db) => nodes.appendNodes(db, sessionId, inputs));
  }
  getNode(id: string): Promise<NodeRow> {
    return this.run(() => nodes.getNode(this.pool, id));
  }
  findNode(id: string): Promise<NodeRow | undefined> {
    return this.run(() => nodes.findNode(this.pool, id));
  }
  pathToRoot(leafId: string): Promise<NodeRow[]> {
    return this.run(() => nodes.pathToRoot(this.pool, leafId));
  }
  activePath(sessionId: string): Promise<NodeRow[]> {
    return this.run(async () => {
      const leaf = await nodes.activeLeafId(this.pool, sessionId);
      return leaf === null ? [] : nodes.pathToRoot(this.pool, leaf);
    });
  }
  activeLeaf(sessionId: string): Promise<NodeRow | null> {
    return this.run(async () => {
      const leaf = await nodes.activeLeafId(this.pool, sessionId);
      return leaf === null ? null : nodes.getNode(this.pool, leaf);
    });
  }
  setActiveLeaf(sessionId: string, nodeId: string): Promise<void> {
    return this.run(() => nodes.setActiveLeaf(this.pool, sessionId, nodeId));
  }
  clearActiveLeaf(sessionId: string): Promise<void> {
    return this.run(() => nodes.setActiveLeaf(this.pool, sessionId, null));
  }
  branchFrom(nodeId: string): Promise<NodeRow> {
    return this.run(async () => {
      const node = await nodes.getNode(this.pool, nodeId);
      await nodes.setActiveLeaf(this.pool, node.sessionId, node.id);
      return node;
    });
  }
  async editUserMessage(nodeId: string, newMessage: Message): Promise<NodeRow> {
    const original = await this.getNode(nodeId);
    if (original.kind !== "message" || original.role !== "user")
      throw new StoreError("invalid_input", `node ${nodeId} is not a user message; only those can be edited`);
    if (newMessage?.role !== "user")
      throw new StoreError("invalid_input", "an edited user message must have role 'user'");
    return this.appendNode(original.sessionId, {
      parentId: original.parentId,
      kind: "message",
      message: newMessage,
    });
  }
  branchPage(
    sessionId: string,
    leafId: string,
    afterSeq: number,
    limit: number,
  ): Promise<NodeRow[] | undefined> {
    return this.run(() => nodes.branchPage(this.pool, sessionId, leafId, afterSeq, limit));
  }
  listBranches(sessionId: string): Promise<NodeRow[]> {
    return this.run(() => nodes.listLeaves(this.pool, sessionId));
  }
  async expandCompaction(nodeId: string): Promise<CompactionExpansion> {
    const node = await this.getNode(nodeId);
    if (node.kind !== "compaction")
      throw new StoreError("invalid_input", `node ${nodeId} is not a compaction`);
    return this.run(() =>
      expandCompaction(
        { find: (id) => nodes.findNode(this.pool, id), pathToRoot: (id) => nodes.pathToRoot(this.pool, id) },
        node,
      ),
    );
  }

  // Search: the trigram index is kept by Postgres with each insert; there is no backlog.
  search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.run(() => searchNodes(this.pool, query, options));
  }
  async rebuildSearchIndex(): Promise<void> {
    await this.run(() => this.pool.query("REINDEX INDEX nodes_search_trgm"));
  }
  async catchUpSearchIndex(): Promise<number> {
    return 0;
  }
  async searchIndexBacklog(): Promise<number> {
    return 0;
  }

  // Usage
  recordUsage(input: UsageInput): Promise<UsageRow> {
    return this.tx((db) => recordUsage(db, input));
  }
  sessionCostWithChildrenUsd(sessionId: string): Promise<number> {
    return this.run(() => sessions.costWithChildren(this.pool, sessionId));
  }
  usageForSession(sessionId: string): Promise<UsageRow[]> {
    return this.run(() => usageForSession(this.pool, sessionId));
  }

  // Effect receipts
  beginEffect(input: BeginEffectInput): Promise<BeginEffectResult> {
    return this.tx((db) => fx.beginEffect(db, input));
  }
  getEffect(id: string): Promise<EffectRow> {
    return this.run(() => fx.getEffect(this.pool, id));
  }
  completeEffect(id: string, result: unknown): Promise<EffectRow> {
    return this.run(() => fx.settleEffect(this.pool, id, "completed", { result }));
  }
  failEffect(id: string, error: string): Promise<EffectRow> {
    return this.run(() => fx.settleEffect(this.pool, id, "failed", { error }));
  }
  findEffectByOp(logicalOpId: string): Promise<EffectRow | undefined> {
    return this.run(() => fx.findEffectByOp(this.pool, logicalOpId));
  }
  findEffect(idOrPrefix: string): Promise<EffectRow | undefined> {
    return this.run(() => fx.findEffectByIdOrPrefix(this.pool, idOrPrefix));
  }
  listEffects(limit = 1000): Promise<EffectRow[]> {
    return this.run(() => fx.listEffects(this.pool, limit));
  }
  listUnresolved(sessionId?: string): Promise<EffectRow[]> {
    return this.run(() => fx.listUnresolved(this.pool, sessionId));
  }
  resolveEffect(id: string, outcome: "applied" | "not_applied", evidence: string): Promise<EffectRow> {
    return this.run(() => fx.settleEffect(this.pool, id, fx.resolutionOf(outcome), { evidence }));
  }
  fileSnapshots(nodeIds: readonly string[]): Promise<EffectSnapshotRow[]> {
    return this.run(() => fx.fileSnapshots(this.pool, nodeIds));
  }
}
