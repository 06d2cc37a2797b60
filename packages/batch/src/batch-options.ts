// What `iris batch` is asked to do (the CLI's flags, or a caller's own options).
import type { ApiMode } from "@iris/llm";
import type { RowStatus, TrajectoryFormat } from "./trajectory.js";

export interface BatchOptions {
  input: string;
  out: string;
  failed?: string;
  concurrency?: number;
  maxRounds?: number;
  toolsets?: string[];
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiMode?: ApiMode;
  budgetUsd?: number;
  maxItems?: number;
  resume?: boolean;
  force?: boolean;
  rerun?: RowStatus[];
  profile?: string;
  jsonSummary?: string;
  itemTimeoutSeconds?: number;
  keepWorkdirs?: boolean;
  /** Hand the items to `iris worker` processes through the profile's work queue (config `queue:`). */
  queue?: boolean;
  /** The rows' conversation layout (default sharegpt). */
  format?: TrajectoryFormat;
  env?: Record<string, string | undefined>;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Aborting it stops the run like Ctrl-C (the CLI wires SIGINT/SIGTERM to it). */
  signal?: AbortSignal;
}
