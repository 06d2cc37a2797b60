// What the dashboard front end needs from the profile's state (SPEC E1 front ends).
export type {
  AskRow,
  McpStateRow,
  NodeRow,
  PlatformHealthRow,
  PlatformState,
  SearchHit,
  SessionCursor,
  SessionListRow,
  SessionRow,
  UsageDayRow,
  UsageSplit,
  UsageTotals,
} from "@iris/store";
export * from "./ask-board.js";
export * from "./config-file.js";
export * from "./data.js";
export { exportMessagesAs, exportSessionAs, type SessionExportFormat } from "./export.js";
export * from "./platform-health.js";
