// The application core every front end uses (ARCHITECTURE.md "Process scope and session scope"):
// config and profiles, the process scope, the session scope, and doctor.
export * from "./app/approval-modes.js";
export * from "./app/ask-client.js";
export * from "./app/boot.js";
export * from "./app/branching.js";
export * from "./app/context-control.js";
export * from "./app/context-report.js";
export * from "./app/delegate.js";
export * from "./app/events.js";
export { InMemoryState } from "./app/in-memory-state.js";
export * from "./app/job-queue.js";
export * from "./app/mcp-probe.js";
export * from "./app/mcp-serve.js";
export * from "./app/process.js";
// The profile's store is host's to open (IrisProcess, StoredRecords, DashboardData), not exported.
export type { RewindResult } from "./app/rewind.js";
export * from "./app/route.js";
export * from "./app/route-limiter.js";
export * from "./app/session.js";
export * from "./app/session-finder.js";
export { TITLE_MAX } from "./app/session-fork.js";
export * from "./app/session-lease.js";
export type * from "./app/session-log.js";
export { withoutEmptySkills } from "./app/session-menu.js";
export * from "./app/session-prompts.js";
export type { StoredSessions } from "./app/session-stored.js";
export * from "./app/session-title.js";
export * from "./app/session-turn-lock.js";
export * from "./app/stored-records.js";
export * from "./app/tool-call-text.js";
export * from "./app/tools-report.js";
export * from "./app/tools-setup.js";
export * from "./app/turn-view.js";
export { takesImages } from "./app/vision.js";
export {
  availableBackends,
  switchSessionWorkspace,
  WORKSPACE_BACKENDS,
  type WorkspaceBackend,
} from "./app/workspace-setup.js";
export * from "./commands/registry.js";
export * from "./commands/usage-line.js";
export * from "./config/index.js";
export { yaml } from "./config/yaml-lib.js";
export * from "./dashboard/index.js";
export * from "./doctor/endpoints.js";
export * from "./doctor/report.js";
export * from "./doctor/run.js";
export * from "./doctor/workspace.js";
export * from "./front-end-api.js";
