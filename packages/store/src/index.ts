export type { ActiveTime } from "./active-time.js";
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
export type {
  AskBoard,
  DashboardReads,
  DashboardState,
  FrontEndStates,
  GatewayIdentities,
  GatewayState,
  McpStates,
  PlatformHealth,
  Promised,
  WebPages,
} from "./front-end-state.js";
export {
  type ApprovedRow,
  type ApproveResult,
  type InboundRow,
  type IssueResult,
  type OutboxRow,
  PAIRING_CODE_LENGTH,
  PAIRING_LOCKOUT_MS,
  PAIRING_MAX_FAILURES,
  type PairingRow,
} from "./gateway.js";
export {
  type BindingRow,
  LOGIN_TOKEN_PREFIX,
  type Login,
  type LoginRow,
} from "./gateway-identities.js";
export { shortId } from "./ids.js";
export type { McpStateInput, McpStateRow } from "./mcp-state.js";
export { migrate, schemaVersion } from "./migrate.js";
export { LATEST_SCHEMA_VERSION } from "./migrations/index.js";
export type { NodeInput } from "./nodes.js";
export type { PlatformHealthRow, PlatformState } from "./platform-health.js";
export { PG_LATEST_VERSION } from "./postgres/migrations.js";
export type { PostgresOptions } from "./postgres/pool.js";
export { type PostgresProbe, probePostgres } from "./postgres/probe.js";
export { openPostgresStore, PostgresStore } from "./postgres/store.js";
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
  ConversationStore,
  CooldownState,
  EffectState,
  LeaseState,
  NodeTreeState,
  SearchState,
  SessionState,
  StartSessionInput,
  Store,
  StoreBackend,
  UsageState,
} from "./state.js";
export type { OpenStoreOptions } from "./store.js";
export type {
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
