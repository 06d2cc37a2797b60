export type { ActiveTime } from "./active-time.js";
export type { BranchTip } from "./branch-tips.js";
export type { CompactionExpansion } from "./compaction.js";
export type { AskKind, AskRow, AskState } from "./dashboard-asks.js";
export type {
  SessionCursor,
  SessionListRow,
  UsageDayRow,
  UsageSplit,
  UsageTotals,
} from "./dashboard-reads.js";
export type { EffectSnapshotRow, FileBefore } from "./effect-snapshots.js";
export type { BeginEffectInput, BeginEffectResult, EffectRow, EffectStatus } from "./effects.js";
export { isBusyError, StoreError, type StoreErrorCode } from "./errors.js";
export { SHORT_ID_LENGTH, shortId } from "./ids.js";
export type { McpStateInput, McpStateRow } from "./mcp-state.js";
export { migrate, schemaVersion } from "./migrate.js";
export { LATEST_SCHEMA_VERSION } from "./migrations/index.js";
export type { NodeInput } from "./nodes.js";
export type { PlatformHealthRow, PlatformState } from "./platform-health.js";
export { PG_LATEST_VERSION } from "./postgres/migrations.js";
export type { PostgresOptions } from "./postgres/pool.js";
export { type PostgresProbe, probePostgres } from "./postgres/probe.js";
export { openPostgresStore, PostgresStore } from "./postgres/store.js";
export type { Promised } from "./promised.js";
export { redactUrl } from "./queue/bullmq-connection.js";
export { openBullMqQueue as openJobQueue, QueueUnavailableError } from "./queue/bullmq-queue.js";
export type {
  ConnectionEvent,
  JobContext,
  JobInfo,
  JobQueue,
  JobQueueBackend,
  JobQueueOptions,
  JobState,
  QueueWorker,
  WorkOptions,
} from "./queue/job-queue.js";
export type { RouteCooldownRow } from "./route-cooldowns.js";
export type { NodeKind, NodeRow, SessionRow, SessionTotals } from "./rows.js";
export { checkDatabase, type SalvageReport, salvageDatabase } from "./salvage.js";
export type { SearchHit, SearchOptions } from "./search.js";
export type { AcquireLeaseInput, AcquireLeaseResult, LeaseHolder, SessionLease } from "./session-leases.js";
export type { CreateSessionInput, ListSessionsOptions, SessionPageOptions } from "./sessions.js";
export { openStore, SqliteStore } from "./sqlite-store.js";
export type {
  ActiveTimeState,
  AskBoard,
  ConversationStore,
  CooldownState,
  DashboardReads,
  DashboardState,
  EffectState,
  LeaseState,
  McpStates,
  NodeTreeState,
  PlatformHealth,
  SearchState,
  SessionState,
  SharedStates,
  StartSessionInput,
  Store,
  StoreBackend,
  UsageState,
  WebPages,
} from "./state.js";
export type { OpenStoreOptions } from "./store.js";
export type {
  LockSession,
  PostgresQuery,
  PostgresTables,
  QueryResult,
  RunInfo,
  SqliteTables,
  TableAccess,
  TableHost,
  TableMigration,
  TableSet,
  TableSetVersion,
} from "./tables/table-set.js";
export type { UsageInput, UsageRow } from "./usage.js";
export { WEB_PAGES_KEPT, type WebPageHit, type WebPageInput } from "./web-pages.js";
