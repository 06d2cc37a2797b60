// What front ends need from the layers below host, re-exported so that a front end imports
// `@iris/host` only (ARCHITECTURE.md: llm ← tools ← agent ← host ← front ends; check-imports.mjs
// enforces it). Types first; the values are the few a front end's own commands read from a store
// they open (the CLI's `sessions`/`usage`/`effects` listings, `iris cron` and the web chat's
// user commands) until those move behind host methods. A running front end reaches its own tables
// through IrisProcess (gatewayState, …) or, once moved, its own table set
// (IrisProcess.openTables: the types below), and stored sessions through its sessions
// (Session.stored, history()).
export type {
  Agent,
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
  findEffect,
  JsonlConversation,
  listAllEffects,
  messagesOfPath,
  StoreConversation,
  sessionHygiene,
  storedHistory,
} from "@iris/agent";
export type {
  ActiveTime,
  BindingRow,
  EffectRow,
  GatewayIdentities,
  GatewayState,
  Login,
  LoginRow,
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
export { LOGIN_TOKEN_PREFIX, openPostgresStore, openStore, StoreError, shortId } from "@iris/store";
export type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";
