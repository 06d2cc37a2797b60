// What a batch run is about to do, worked out before anything runs: the input read and checked
// against what OUT already holds (resume, edited items, a changed format), the main route
// resolved, and the run's meta file written. Bad input or options throw a UsageError.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import {
  type IrisConfig,
  type Profile,
  type RouteFlags,
  resolveMainRoute,
  routeFlagsOf,
  splitModelSpec,
} from "@iris/host";
import type { Runtime } from "@iris/llm";
import type { BatchOptions } from "./batch-options.js";
import { editedKeys } from "./edited.js";
import { type ParsedInput, parseInput } from "./input.js";
import { type BatchPaths, batchPaths, dropRows, type Ledger, readLedger } from "./ledger.js";
import { compareInput, readMeta, writeMeta } from "./run-meta.js";
import type { TrajectoryFormat } from "./trajectory.js";

/** Bad input, options or config: exit 2 with the message. */
export class UsageError extends Error {}

export interface BatchPlan {
  /** The run's id (OUT.meta.json), the same on every resume. */
  runId: string;
  concurrency: number;
  input: ParsedInput;
  paths: BatchPaths;
  ledger: Ledger;
  format: TrajectoryFormat;
  route: RouteFlags;
  mainRuntime: Runtime;
}

function hasContent(path: string): boolean {
  return existsSync(path) && statSync(path).size > 0;
}

export function planRun(opts: BatchOptions, profile: Profile, stderr: NodeJS.WritableStream): BatchPlan {
  const cfg = profile.config.batch;
  if (opts.queue && opts.concurrency !== undefined)
    throw new UsageError(
      "--concurrency is for a run in this process; with --queue each worker has its own (iris worker --concurrency N)",
    );
  const concurrency = opts.concurrency ?? cfg.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError("--concurrency must be 1 or more");
  let text: string;
  try {
    text = readFileSync(opts.input, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read the input ${opts.input}: ${(err as Error).message}`);
  }
  const input = parseInput(text, opts.maxItems !== undefined ? { maxItems: opts.maxItems } : {});
  const paths = batchPaths(opts.out, opts.failed);
  if (!opts.resume && (hasContent(paths.out) || hasContent(paths.failed)))
    throw new UsageError(
      `${paths.out} (or ${paths.failed}) already has rows: add --resume to continue that run, or choose another --out`,
    );
  const ledger: Ledger = opts.resume
    ? readLedger(paths, { rerun: opts.rerun ?? [] })
    : { rows: new Map(), failures: new Map(), notes: [] };
  for (const n of ledger.notes) stderr.write(`iris batch: ${n}\n`);

  const trajectoryOptions = {
    model: opts.model ?? null,
    provider: opts.provider ?? null,
    toolsets: opts.toolsets ?? null,
    max_rounds: opts.maxRounds ?? null,
    // Only when not the default, so the runs of earlier versions compare equal.
    ...(opts.format === "openai" ? { format: "openai" } : {}),
  };
  const meta = opts.resume ? readMeta(paths.meta) : undefined;
  const format = opts.format ?? "sharegpt";
  const formatBefore = meta ? ((meta.options.format as string | undefined) ?? "sharegpt") : format;
  if (formatBefore !== format)
    throw new UsageError(
      `${paths.out} holds --format ${formatBefore} rows: resume it with --format ${formatBefore}`,
    );
  const change = compareInput(
    meta,
    { sha256: input.sha256, allKeys: input.allKeys, options: trajectoryOptions },
    // Only rows count: a malformed line fixed since has a new key, and that is fine.
    ledger.rows.keys(),
  );
  if (change.message) stderr.write(`iris batch: ${change.message}\n`);
  const edited = editedKeys(input.items, ledger.rows);
  if (edited.length)
    stderr.write(
      `iris batch: ${edited.length} item(s) with a row were edited in the input since (their id is kept): ` +
        `${edited.slice(0, 5).join(", ")}${edited.length > 5 ? ", …" : ""}${opts.force ? "; --force: they run again" : ""}\n`,
    );
  if ((change.orphans.length || edited.length) && !opts.force)
    throw new UsageError(
      "the input no longer matches the output; check the input, or add --force to go on anyway",
    );
  if (edited.length) dropRows(paths, ledger, edited);

  const route: RouteFlags = routeFlagsOf(mainRouteFlags(opts, profile.config));
  const main = resolveMainRoute(route, profile.config, profile.env);
  if (!main.ok) throw new UsageError(main.error);

  const runId = meta?.run_id ?? randomUUID();
  writeMeta(paths.meta, {
    version: 1,
    run_id: runId,
    input: { path: opts.input, sha256: input.sha256, lines: input.lines },
    options: trajectoryOptions,
    runs: [...(meta?.runs ?? []), { started_at: new Date().toISOString(), resumed: opts.resume === true }],
  });

  return { runId, concurrency, input, paths, ledger, format, route, mainRuntime: main.runtime };
}

/** --model PROVIDER/MODEL names the provider too, unless --provider does. */
function mainRouteFlags(opts: BatchOptions, config: IrisConfig): RouteFlags {
  const flags: RouteFlags = { ...opts };
  if (opts.model && !opts.provider) {
    const spec = splitModelSpec(opts.model, config, config.model.provider ?? "");
    if (spec.provider) {
      flags.provider = spec.provider;
      flags.model = spec.model;
    }
  }
  return flags;
}
