// One batch item as a job of the work queue (`iris batch --queue`, `iris worker`): what the
// producer puts in it and the worker checks before running it. Everything in it is plain data
// that may be read by any worker on any machine: the item, the run's route flags and options,
// never a key (each worker uses its own profile's keys). The job's id is the run's id and the
// item's key, so the same run never enqueues an item twice.
import { z } from "zod";
import type { BatchItem } from "./input.js";
import type { TrajectoryFormat } from "./trajectory.js";

/** The queue of batch items is `<queue.name>-batch`. */
export const BATCH_QUEUE = "batch";

const itemSchema = z.strictObject({
  key: z.string().min(1),
  line: z.int().min(1),
  id: z.string().optional(),
  prompt: z.string(),
  system: z.string().optional(),
  cwd: z.string().optional(),
  toolsets: z.array(z.string().min(1)).optional(),
  model: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
});

const runOptionsSchema = z.strictObject({
  route: z.strictObject({
    provider: z.string().optional(),
    model: z.string().optional(),
    baseUrl: z.string().optional(),
    apiMode: z.enum(["chat_completions", "responses", "anthropic_messages"]).optional(),
  }),
  toolsets: z.array(z.string().min(1)).optional(),
  maxRounds: z.int().min(0).optional(),
  itemTimeoutSeconds: z.number().positive().optional(),
  keepWorkdirs: z.boolean(),
  format: z.enum(["sharegpt", "openai"] as const satisfies readonly TrajectoryFormat[]),
});

export const batchJobSchema = z.strictObject({
  version: z.literal(1),
  /** The run's id (kept in OUT.meta.json): the item logs of one run share a folder. */
  run: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  item: itemSchema,
  options: runOptionsSchema,
});

export type BatchJob = z.output<typeof batchJobSchema>;
export type BatchRunOptions = BatchJob["options"];

export function batchJobId(run: string, key: string): string {
  return `${run}:${key}`;
}

export function batchJobOf(run: string, item: BatchItem, options: BatchRunOptions): BatchJob {
  return { version: 1, run, item: { ...item }, options };
}

/** The error of a job that is not one (another program's, or a newer Iris's): names what is wrong. */
export function readBatchJob(data: unknown): { ok: true; job: BatchJob } | { ok: false; error: string } {
  const res = batchJobSchema.safeParse(data);
  if (res.success) return { ok: true, job: res.data };
  const issue = res.error.issues[0];
  return {
    ok: false,
    error: `not a batch item job of this Iris (${issue?.path.join(".") || "job"}: ${issue?.message})`,
  };
}
