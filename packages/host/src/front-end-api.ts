// What front ends need from the layers below host, re-exported so that a front end imports
// `@iris/host` only (ARCHITECTURE.md: llm ← tools ← agent ← host ← front ends; check-imports.mjs
// enforces it). Types first; the values are the few a front end's own commands read (the CLI's
// `sessions`/`usage`/`effects` listings, the gateway's and serve's own tables) until those move
// behind host methods.
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
  CronControl,
  CronJobRow,
  CronState,
  EffectRow,
  GatewayIdentities,
  GatewayState,
  Login,
  LoginRow,
  NodeInput,
  NodeRow,
  RecordedAnswerRow,
  ServeState,
  SessionRow,
  SessionTotals,
  SqliteStore,
  Store,
  UsageRow,
} from "@iris/store";
export { LOGIN_TOKEN_PREFIX, openStore, StoreError, shortId } from "@iris/store";
export type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";
