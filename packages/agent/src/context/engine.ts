// The context engine (SPEC C1–C5): an interface, one active per profile, and the default engine:
// phase 1 prunes old tool outputs without a model call, phase 2 summarises the middle with an
// auxiliary model. It fails closed (U2): when the summary cannot be made the history stays whole.
import type { Message, Origin } from "@iris/llm";
import { assemble, chooseSummaryRole, SUMMARY_ORIGIN } from "./assemble.js";
import { headEnd, newestUserIndex, previousSummaryIndex, type TailOptions, tailStart } from "./boundaries.js";
import { type ContextBudget, computeContextBudget } from "./budget.js";
import { type PruneOptions, pruneToolOutputs } from "./prune.js";
import { buildSummaryRequest, type Summarizer, summaryWindowProblem } from "./summarise.js";
import { previousSummaryOf, summaryMessageText } from "./summary-text.js";
import { estimateMessagesTokens } from "./tokens.js";

export interface ModelInfo {
  id: string;
  /** The believed window (max input tokens of the route). */
  contextWindow: number;
  provider?: string;
}

export interface CompressInput {
  messages: readonly Message[];
  budget: ContextBudget;
  /** The auxiliary model for phase 2; without one only phase 1 can run. */
  summarizer?: Summarizer;
  /** AGENTS.md and the like, carried again inside the summary message (U2). */
  projectInstructions?: string;
  /** The last measured prompt size; without it the size is estimated. */
  promptTokens?: number;
  /** The system prompt, counted in the estimate when no measurement is given. */
  system?: string;
  signal?: AbortSignal;
}

export interface HistorySize {
  messages: number;
  tokens: number;
}

export type CompressResult =
  | {
      ok: true;
      phase: 1 | 2;
      messages: Message[];
      summaryText: string | null;
      before: HistorySize;
      after: HistorySize;
      /** Phase 2: the input indices [start, end) the summary replaced. */
      summarised?: { start: number; end: number };
      pruned: { deduplicated: number; summarised: number; argumentsTruncated: number };
      /** Orphans repaired while assembling (call ids). */
      repaired: { stubbed: string[]; removed: string[] };
    }
  | {
      ok: false;
      reason: string;
      /** For the user: names why, and says nothing was dropped. */
      warning: string;
      /** The original messages, unchanged. */
      messages: Message[];
    };

export interface ContextEngine {
  readonly name: string;
  /** Recomputed when an agent is created, on model switch and on fallback (M2). */
  budget(model: ModelInfo): ContextBudget;
  shouldCompress(promptTokens: number, budget: ContextBudget): boolean;
  compress(input: CompressInput): Promise<CompressResult>;
}

export interface DefaultEngineOptions {
  threshold?: number;
  /** Per-model thresholds, keyed "provider/model" or "model"; re-resolved on every budget call. */
  perModelThresholds?: Record<string, number>;
  tailRatio?: number;
  protectLastN?: number;
  headMessages?: number;
  summaryCapTokens?: number;
  prune?: PruneOptions;
  /** The origin given to a summary that ends up as an assistant message. */
  summaryOrigin?: Origin;
}

export function failureWarning(reason: string): string {
  return (
    `Context compression failed: ${reason}. The conversation was kept whole (nothing was dropped), ` +
    "so it may soon exceed the model's context window; try again later or start a new session."
  );
}

export function createDefaultContextEngine(options: DefaultEngineOptions = {}): ContextEngine {
  return {
    name: "default",
    budget(model) {
      const perModel =
        options.perModelThresholds?.[`${model.provider ?? ""}/${model.id}`] ??
        options.perModelThresholds?.[model.id];
      return computeContextBudget({
        contextWindow: model.contextWindow,
        threshold: options.threshold,
        perModelThreshold: perModel,
        tailRatio: options.tailRatio,
        protectLastN: options.protectLastN,
        headMessages: options.headMessages,
        summaryCapTokens: options.summaryCapTokens,
      });
    },
    shouldCompress(promptTokens, budget) {
      return promptTokens >= budget.triggerTokens;
    },
    compress(input) {
      return compressDefault(input, options);
    },
  };
}

async function compressDefault(input: CompressInput, options: DefaultEngineOptions): Promise<CompressResult> {
  const original = [...input.messages];
  const { budget } = input;
  const fail = (reason: string): CompressResult => ({
    ok: false,
    reason,
    warning: failureWarning(reason),
    messages: original,
  });
  // What the estimate misses (tool schemas, a measured system prompt) is carried as an offset.
  const estimated = estimateMessagesTokens(original);
  const beforeTokens = input.promptTokens ?? estimateMessagesTokens(original, input.system);
  const offset = beforeTokens - estimated;
  const sizeOf = (messages: readonly Message[]): HistorySize => ({
    messages: messages.length,
    tokens: Math.max(0, estimateMessagesTokens(messages) + offset),
  });
  const before = { messages: original.length, tokens: beforeTokens };
  const tailOptions = { budgetTokens: budget.tailBudgetTokens, minMessages: budget.protectLastN };

  // Phase 1: no model call. The tail is measured from the end of the head, like phase 2: a long
  // agentic turn has its only user message in the head, and moving the tail back to it would
  // protect the whole history.
  const head1 = headEnd(original, budget.headMessages);
  const pruned = pruneToolOutputs(original, tailStart(original, tailOptions, head1), options.prune);
  const afterPrune = sizeOf(pruned.messages);
  const prunedCounts = {
    deduplicated: pruned.deduplicated,
    summarised: pruned.summarised,
    argumentsTruncated: pruned.argumentsTruncated,
  };
  // Pruning is enough only when it leaves headroom (a tail budget, or the newest round if that is
  // bigger, under the trigger): a history left just under the trigger would be compressed again
  // on the next round, and the next.
  const headroom = Math.max(budget.tailBudgetTokens, newestRoundTokens(original));
  const phase1: CompressResult = {
    ok: true,
    phase: 1,
    messages: pruned.messages,
    summaryText: null,
    before,
    after: afterPrune,
    pruned: prunedCounts,
    repaired: { stubbed: [], removed: [] },
  };
  if (afterPrune.tokens <= budget.triggerTokens - headroom) return phase1;
  // When a summary cannot add to it (nothing left between head and tail, or too little saved),
  // pruning that saved enough on its own still counts.
  const minSaving = minimumSaving(budget);
  const orPruned = (reason: string): CompressResult =>
    before.tokens - afterPrune.tokens >= minSaving ? phase1 : fail(reason);

  // Phase 2: summarise the middle.
  if (!input.summarizer)
    return fail("no summary model is configured and pruning old tool outputs was not enough");
  const messages = pruned.messages;
  // The tail is measured on the messages as they were: pruned stubs are cheap, and measuring on
  // them would protect every stub and leave the summary nothing to do.
  const cut = middleBounds(messages, original, budget.headMessages, tailOptions);
  const { h, t, keep } = cut;
  const prev = previousSummaryIndex(messages, h, t);
  // The newest user message stays verbatim (it says what the turn is for); completed rounds of
  // the current turn around it may be summarised.
  const fresh = messages.slice(h, t).filter((_, i) => h + i !== prev && h + i !== keep);
  if (fresh.length === 0) {
    return orPruned(
      `nothing to summarise between the head (${h} messages) and the protected tail (${messages.length - t} messages)`,
    );
  }
  const previous = prev >= 0 ? previousSummaryOf(messages[prev] as Message) : undefined;
  const request = buildSummaryRequest(fresh, previous, budget.summaryCapTokens);
  const problem = summaryWindowProblem(request, input.summarizer.contextWindow);
  if (problem) return fail(problem);
  if (input.signal?.aborted) return fail("compression was cancelled");
  let outcome: Awaited<ReturnType<Summarizer["summarize"]>>;
  try {
    outcome = await input.summarizer.summarize({ ...request, signal: input.signal });
  } catch (err) {
    outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  if (!outcome.ok) return fail(`the summary model failed (${outcome.error})`);
  if (!outcome.text.trim()) return fail("the summary model returned an empty summary");
  const summaryText = summaryMessageText(outcome.text, input.projectInstructions);
  const kept = keep >= 0 ? [messages[keep] as Message] : [];
  const assembled = assemble(
    messages.slice(0, h),
    summaryText,
    [...kept, ...messages.slice(t)],
    options.summaryOrigin ?? SUMMARY_ORIGIN,
  );
  const after = sizeOf(assembled.messages);
  // A compression that saves too little is a failure: splitting the session for it would only
  // make the next round compress again (the small-window loop).
  if (before.tokens - after.tokens < minSaving) {
    return orPruned(
      `the summary saved only ${Math.max(0, before.tokens - after.tokens)} tokens, less than the minimum of ${minSaving}`,
    );
  }
  return {
    ok: true,
    phase: 2,
    messages: assembled.messages,
    summaryText,
    before,
    after,
    summarised: { start: h, end: t },
    pruned: prunedCounts,
    repaired: { stubbed: assembled.stubbed, removed: assembled.removed },
  };
}

/** The newest round: the last assistant message and the results after it. */
function newestRoundTokens(messages: readonly Message[]): number {
  let i = messages.length - 1;
  while (i > 0 && messages[i]?.role === "tool") i--;
  return estimateMessagesTokens(messages.slice(i));
}

/** Phase 2 must save at least a tenth of the trigger, and never less than 256 tokens. */
export function minimumSaving(budget: ContextBudget): number {
  return Math.max(256, Math.floor(budget.triggerTokens / 10));
}

/**
 * Head end `h`, tail start `t`, and `keep`: the newest user message when it lies between them
 * (kept verbatim right after the summary), else -1. With such a message the head gives up its
 * last message when the summary could take no role of its own between them.
 */
function middleBounds(
  messages: readonly Message[],
  unpruned: readonly Message[],
  headMessages: number,
  tailOptions: TailOptions,
): { h: number; t: number; keep: number } {
  let h = headEnd(messages, headMessages);
  const t0 = tailStart(unpruned, tailOptions, h);
  const u = newestUserIndex(messages);
  if (u < h || u >= t0) return { h, t: avoidMerge(messages, h, t0), keep: -1 };
  while (
    h > 1 &&
    chooseSummaryRole(messages[h - 1], messages[u]) === "merge" &&
    messages[h - 1]?.role !== "tool"
  )
    h--;
  return { h, t: t0, keep: u };
}

/**
 * When neither role fits between head and tail (user … assistant), the summary would have to be
 * merged into the first tail message; taking one more call group into the tail avoids that.
 */
function avoidMerge(messages: readonly Message[], h: number, t: number): number {
  if (chooseSummaryRole(messages[h - 1], messages[t]) !== "merge") return t;
  let back = t - 1;
  while (back > h && messages[back]?.role === "tool") back--;
  if (back > h && chooseSummaryRole(messages[h - 1], messages[back]) !== "merge") return back;
  return t;
}
