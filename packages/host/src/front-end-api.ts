// What front ends need from the layers below host, re-exported so that a front end imports
// `@iris/host` only (ARCHITECTURE.md: llm ← tools ← agent ← host ← front ends; check-imports.mjs
// enforces it). A front end never opens or holds a store: a running one reaches stored sessions
// through its sessions (Session.stored, history()) and IrisProcess's methods, its own table set
// through IrisProcess.openTables (the types below), and a command without a model through
// StoredRecords (its openTables too).
// The store's values below (openStore, openPostgresStore, the Store types) are for front ends'
// tests, which arrange and look at what was stored (check-imports.mjs refuses them elsewhere).
export type {
  AgentEventMap,
  FrontEnd,
  RepairedCall,
  TerminationReason,
  TurnResult,
} from "@iris/agent";
export {
  // A value, so a front end's tests can drive its renderers with an emitter of their own.
  AgentEvents,
  COMPRESSED_END_REASON,
  EFFECT_OUTCOME_UNCERTAIN,
  exitCodeFor,
  JsonlConversation,
  StoreConversation,
  sessionHygiene,
  storedHistory,
} from "@iris/agent";
export type {
  ActiveTime,
  EffectRow,
  LockSession,
  NodeInput,
  NodeRow,
  PostgresQuery,
  PostgresTables,
  QueryResult,
  RunInfo,
  SessionRow,
  SessionTotals,
  SqliteStore,
  SqliteTables,
  Store,
  TableAccess,
  TableMigration,
  TableSet,
  TableSetVersion,
  UsageRow,
} from "@iris/store";
export { openPostgresStore, openStore, StoreError, shortId } from "@iris/store";
export type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";
