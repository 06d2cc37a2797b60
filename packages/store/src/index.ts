export type { ActiveTime } from "./active-time.js";
export type { CompactionExpansion } from "./compaction.js";
export { CronControl, type CronControlRow, type CronRunResultRow } from "./cron-control.js";
export { AskBoard, type AskKind, type AskRow, type AskState } from "./dashboard-asks.js";
export {
  DashboardReads,
  type SessionCursor,
  type SessionListRow,
  type UsageDayRow,
  type UsageSplit,
  type UsageTotals,
} from "./dashboard-reads.js";
export type { Database } from "./driver.js";
export type { EffectSnapshotRow, FileBefore } from "./effect-snapshots.js";
export type { BeginEffectInput, BeginEffectResult, EffectRow, EffectStatus } from "./effects.js";
export { isBusyError, StoreError, type StoreErrorCode } from "./errors.js";
export {
  type ApprovedRow,
  type ApproveResult,
  GatewayState,
  type InboundRow,
  type IssueResult,
  type OutboxRow,
  PAIRING_CODE_LENGTH,
  PAIRING_LOCKOUT_MS,
  PAIRING_MAX_FAILURES,
  type PairingRow,
} from "./gateway.js";
export { type CronJobRow, CronState } from "./gateway-cron.js";
export {
  type BindingRow,
  GatewayIdentities,
  LOGIN_TOKEN_PREFIX,
  type Login,
  type LoginRow,
} from "./gateway-identities.js";
export { shortId } from "./ids.js";
export { type McpStateInput, type McpStateRow, McpStates } from "./mcp-state.js";
export { migrate, schemaVersion } from "./migrate.js";
export { LATEST_SCHEMA_VERSION } from "./migrations/index.js";
export type { NodeInput } from "./nodes.js";
export { PlatformHealth, type PlatformHealthRow, type PlatformState } from "./platform-health.js";
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
export { type RecordedAnswerRow, ServeState } from "./serve-state.js";
export type { AcquireLeaseInput, AcquireLeaseResult, LeaseHolder, SessionLease } from "./session-leases.js";
export type { CreateSessionInput, ListSessionsOptions, SessionPageOptions } from "./sessions.js";
export { type OpenStoreOptions, openStore, Store } from "./store.js";
export type { UsageInput, UsageRow } from "./usage.js";
export { WEB_PAGES_KEPT, type WebPageHit, type WebPageInput, WebPages } from "./web-pages.js";
