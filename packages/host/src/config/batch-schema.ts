// config.yaml `batch:` — the batch runner (`iris batch`, SPEC E4). Flags on the command line win.
import { z } from "zod";

export const batchSchema = z.strictObject({
  approvals: z
    .enum(["deny", "allow"])
    .default("deny")
    .describe("What a dangerous command gets in a batch item: nobody is there to ask, so deny by default."),
  concurrency: z.int().min(1).max(256).default(4).describe("Items run at once (--concurrency wins)."),
  item_timeout_seconds: z
    .number()
    .positive()
    .default(600)
    .describe("Wall-clock limit of one item; a stalled item is stopped and recorded as failed."),
  worker_dir: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Where `iris worker` keeps the conversation logs (with receipts) of the items it runs until their row is handed over (default: batch-worker/ in the profile). Workers on several machines that share this folder continue one another's items after a crash without running a recorded effect again.",
    ),
});
