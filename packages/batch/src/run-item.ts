// One batch item as one host Session (SPEC E4): a fresh session in its own working directory (a
// new temp directory unless the item gives `cwd`), one turn with nobody to ask (approvals follow
// `batch.approvals`), then the conversation read back into a trajectory row. The session is
// written to its own JSONL log (a file per item), never to the profile's state.db (D5); the row is
// read back from that file, which the run removes once the row is on disk. An error, a tool crash or a
// stalled model ends this item only; an interrupt (or a kill) of the whole run writes no row and
// keeps the log, so resume continues the recorded turn and never re-runs a recorded effect
// (resume-item.ts).
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  EFFECT_OUTCOME_UNCERTAIN,
  type IrisProcess,
  JsonlConversation,
  type Session,
  type TerminationReason,
  type TurnResult,
  withoutEmptySkills,
} from "@iris/host";
import type { Message, Runtime, ToolSpec } from "@iris/llm";
import type { BatchItem } from "./input.js";
import { leftOverOf } from "./resume-item.js";
import { conversationFields } from "./row-conversation.js";
import {
  type RowStatus,
  type RowUsage,
  type TrajectoryFormat,
  type TrajectoryRow,
  ZERO_ROW_USAGE,
} from "./trajectory.js";

export interface ItemContext {
  /** The process whose tool menu fits the item's toolsets. */
  processFor(toolsets: string[] | undefined): Promise<IrisProcess>;
  /** The route of the item's `model`, or of the run's. */
  runtimeFor(model: string | undefined): { ok: true; runtime: Runtime } | { ok: false; error: string };
  maxRounds?: number;
  itemTimeoutMs: number;
  keepWorkdirs: boolean;
  /** The layout of the row's conversation (`--format`). */
  format: TrajectoryFormat;
  /** Where the item's conversation log is written (a JSONL file). */
  trajectoryPath(key: string): string;
  /** Aborted when the whole run stops (Ctrl-C): the item then leaves no row. */
  stop: AbortSignal;
}

export type ItemOutcome = { kind: "row"; row: TrajectoryRow } | { kind: "interrupted" };

const COMPLETED: ReadonlySet<TerminationReason> = new Set<TerminationReason>(["natural"]);
const FAILED: ReadonlySet<string> = new Set([
  "llm_error",
  "billing_error",
  "store_error",
  "item_timeout",
  "crash",
  "route_error",
  EFFECT_OUTCOME_UNCERTAIN,
]);

export function statusOf(reason: string): RowStatus {
  if (COMPLETED.has(reason as TerminationReason)) return "completed";
  if (reason === "cost_budget_exceeded") return "budget_exceeded";
  if (FAILED.has(reason)) return "failed";
  return "discarded";
}

/** A row for an item that never ran a turn (bad cwd, unknown model, the run's budget spent). */
export function emptyRow(
  item: BatchItem,
  status: RowStatus,
  reason: string,
  extra: { error?: string; model?: string; format?: TrajectoryFormat } = {},
): TrajectoryRow {
  return {
    id: item.id ?? null,
    key: item.key,
    status,
    termination_reason: reason,
    ...conversationFields({
      format: extra.format ?? "sharegpt",
      frozenPrompt: "",
      history: [{ role: "user", content: item.prompt }],
      tools: [],
      itemSystem: item.system,
    }),
    usage: { ...ZERO_ROW_USAGE },
    cost_usd: 0,
    api_calls: 0,
    rounds: 0,
    duration_ms: 0,
    model: extra.model ?? "",
    metadata: item.metadata,
    ...(extra.error !== undefined ? { error: extra.error } : {}),
  };
}

export async function runItem(item: BatchItem, ctx: ItemContext): Promise<ItemOutcome> {
  const started = Date.now();
  if (item.cwd !== undefined && !(existsSync(item.cwd) && statSync(item.cwd).isDirectory()))
    return row(
      emptyRow(item, "failed", "cwd_missing", {
        error: `cwd ${item.cwd} is not a directory`,
        format: ctx.format,
      }),
    );
  const route = ctx.runtimeFor(item.model);
  if (!route.ok)
    return row(emptyRow(item, "failed", "route_error", { error: route.error, format: ctx.format }));
  const modelName = `${route.runtime.provider}/${route.runtime.model}`;
  const workdir = item.cwd ?? (await mkdtemp(join(tmpdir(), "iris-batch-item-")));
  let session: Session | undefined;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ctx.itemTimeoutMs);
  const onStop = () => controller.abort();
  ctx.stop.addEventListener("abort", onStop, { once: true });
  const logPath = ctx.trajectoryPath(item.key);
  try {
    const left = await leftOverOf(item, logPath);
    const proc = await ctx.processFor(item.toolsets);
    session = proc.openSession({
      source: "batch",
      cwd: workdir,
      runtime: route.runtime,
      ...(ctx.maxRounds !== undefined ? { maxRounds: ctx.maxRounds } : {}),
      ...(item.system ? { ephemeralSystemPrompt: item.system } : {}),
      log: { kind: "jsonl", path: logPath },
    });
    await session.startSession();
    const shape = { format: ctx.format, tools: offeredTools(proc, session) };
    if (left.kind === "answered" || left.kind === "uncertain") {
      const finalModel = lastModelOf(await left.log.history()) ?? modelName;
      const reason = left.kind === "answered" ? "natural" : EFFECT_OUTCOME_UNCERTAIN;
      return row(
        await trajectoryOf(item, left.log, shape, {
          reason,
          rounds: left.rounds,
          durationMs: Date.now() - started,
          finalModel,
          ...(left.kind === "uncertain" ? { error: left.error } : {}),
        }),
      );
    }
    let result: TurnResult | undefined;
    let crash: string | undefined;
    try {
      // No front end: nobody can be asked, so approvals take `batch.approvals` (deny by default).
      // A resumed item goes on from its repaired log: no second user message.
      const input = left.kind === "continue" ? null : item.prompt;
      result = await session.send(input, { asks: "nobody", signal: controller.signal });
    } catch (err) {
      crash = err instanceof Error ? err.message : String(err);
    }
    if (ctx.stop.aborted && !timedOut) return { kind: "interrupted" };
    let reason: string = result?.reason ?? "crash";
    let error = crash;
    if (timedOut) {
      reason = "item_timeout";
      error = `the item ran past its time limit (${Math.round(ctx.itemTimeoutMs / 1000)} s) and was stopped`;
    } else if (result && statusOf(reason) === "failed") error = result.text;
    await session.close("batch item done");
    return row(
      await trajectoryOf(item, new JsonlConversation(logPath), shape, {
        reason,
        rounds: (left.kind === "continue" ? left.rounds : 0) + (result?.rounds ?? 0),
        durationMs: Date.now() - started,
        finalModel: result?.message
          ? `${result.message.origin.provider}/${result.message.origin.model}`
          : modelName,
        ...(error !== undefined ? { error } : {}),
      }),
    );
  } catch (err) {
    if (ctx.stop.aborted) return { kind: "interrupted" };
    const message = err instanceof Error ? err.message : String(err);
    return row(emptyRow(item, "failed", "crash", { error: message, model: modelName, format: ctx.format }));
  } finally {
    clearTimeout(timer);
    ctx.stop.removeEventListener("abort", onStop);
    await session?.close("batch item done");
    if (item.cwd === undefined && !ctx.keepWorkdirs) await rm(workdir, { recursive: true, force: true });
  }
}

/** The model of the newest model reply, as PROVIDER/MODEL. */
function lastModelOf(history: readonly Message[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === "assistant" && m.origin.provider !== "iris")
      return `${m.origin.provider}/${m.origin.model}`;
  }
  return undefined;
}

function row(r: TrajectoryRow): ItemOutcome {
  return { kind: "row", row: r };
}

interface TurnFacts {
  reason: string;
  rounds: number;
  durationMs: number;
  finalModel: string;
  error?: string;
}

/** The tools a session of `proc` is offered now, as the model receives them (session-menu.ts's rule). */
function offeredTools(proc: IrisProcess, session: Session): ToolSpec[] {
  return withoutEmptySkills(proc.tools.liveMenu?.() ?? proc.tools.menu, session.skills).specs;
}

/** The row of a finished turn, read back from the item's log (every split's usage included). */
async function trajectoryOf(
  item: BatchItem,
  log: JsonlConversation,
  shape: { format: TrajectoryFormat; tools: readonly ToolSpec[] },
  facts: TurnFacts,
): Promise<TrajectoryRow> {
  const fields = conversationFields({
    format: shape.format,
    frozenPrompt: log.systemPrompt ?? "",
    history: await log.history(),
    tools: shape.tools,
    itemSystem: item.system,
  });
  const usage: RowUsage = { ...ZERO_ROW_USAGE };
  let cost = 0;
  let calls = 0;
  for (const { usage: u, costUsd } of log.usage) {
    usage.input_tokens += u.inputTokens;
    usage.output_tokens += u.outputTokens;
    usage.cache_read_tokens += u.cacheReadTokens;
    usage.cache_write_tokens += u.cacheWriteTokens;
    usage.reasoning_tokens += u.reasoningTokens;
    cost += costUsd;
    calls += 1;
  }
  return {
    id: item.id ?? null,
    key: item.key,
    status: statusOf(facts.reason),
    termination_reason: facts.reason,
    ...fields,
    usage,
    cost_usd: cost,
    api_calls: calls,
    rounds: facts.rounds,
    duration_ms: facts.durationMs,
    model: facts.finalModel,
    metadata: item.metadata,
    ...(facts.error !== undefined ? { error: facts.error } : {}),
  };
}
