// @iris/batch: `iris batch` (SPEC E4), a client of @iris/host's process and session scopes.

export type { BatchOptions } from "./batch-options.js";
export { type BatchItem, type MalformedLine, parseInput } from "./input.js";
export { batchPaths, type FailureEntry } from "./ledger.js";
export {
  type OpenAiMessage,
  type OpenAiTool,
  openAiMessageSchema,
  openAiToolSchema,
  openAiTools,
  toOpenAiMessages,
} from "./openai-format.js";
export { runBatch } from "./run.js";
export type { BatchSummary } from "./summary.js";
export {
  ROW_STATUSES,
  type RowStatus,
  type ShareGptTurn,
  TRAJECTORY_FORMATS,
  type TrajectoryFormat,
  type TrajectoryRow,
  toShareGpt,
  trajectoryRowSchema,
} from "./trajectory.js";
export { runWorker, type WorkerOptions } from "./worker.js";
