// The numbers compression works with (SPEC C1, C2, M2). Nothing here is stored: they are
// recomputed from the believed window whenever an agent is created, the model is switched or a
// fallback activates.
import { z } from "zod";

/** The gateway safety net is fixed (C1): a firing means the agent layer broke, not a tuning knob. */
export const GATEWAY_RATIO = 0.85;
/** Windows under this get the threshold raised to THRESHOLD_FLOOR (raise only). */
export const SMALL_WINDOW_TOKENS = 512_000;
export const THRESHOLD_FLOOR = 0.75;
export const DEFAULT_THRESHOLD = 0.5;
export const DEFAULT_TAIL_RATIO = 0.2;
export const DEFAULT_PROTECT_LAST_N = 20;
export const DEFAULT_HEAD_MESSAGES = 3;
export const SUMMARY_CAP_TOKENS = 12_000;
export const SUMMARY_WINDOW_RATIO = 0.05;

const ratio = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .gt(0, `${name} must be above 0`)
    .lte(1, `${name} must be at most 1`);

const BudgetInputSchema = z.object({
  contextWindow: z
    .number({ error: "contextWindow must be a number of tokens" })
    .int("contextWindow must be a whole number of tokens")
    .positive("contextWindow must be positive"),
  threshold: ratio("threshold").default(DEFAULT_THRESHOLD),
  perModelThreshold: ratio("perModelThreshold").optional(),
  tailRatio: ratio("tailRatio").default(DEFAULT_TAIL_RATIO),
  protectLastN: z.number().int().min(1, "protectLastN must be at least 1").default(DEFAULT_PROTECT_LAST_N),
  headMessages: z.number().int().min(0).default(DEFAULT_HEAD_MESSAGES),
  summaryCapTokens: z.number().int().positive().default(SUMMARY_CAP_TOKENS),
});

export type ContextBudgetInput = z.input<typeof BudgetInputSchema>;

export interface ContextBudget {
  /** The believed context window (max input tokens of the route). */
  window: number;
  /** Agent-layer compression trigger: window × thresholdUsed. */
  triggerTokens: number;
  /** Tokens the protected tail may hold: tailRatio × trigger (a message floor can beat it). */
  tailBudgetTokens: number;
  /** Summary size cap: min(5 % of window, summaryCapTokens); the summary model's max output. */
  summaryCapTokens: number;
  /** Gateway safety net: 0.85 × window, fixed. */
  gatewayTokens: number;
  /** The tail keeps at least this many messages, even over its token budget. */
  protectLastN: number;
  /** Messages kept verbatim at the start. */
  headMessages: number;
  thresholdUsed: number;
  /** Where thresholdUsed came from; "floor" = raised to 0.75 because the window is under 512K. */
  thresholdSource: "default" | "per-model" | "floor";
}

/**
 * Derives the budget. A per-model override replaces the configured threshold; the 0.75 floor for
 * windows under 512K applies after it, to overrides too. Reason (seed 000 §16): the floor exists
 * because 50 % of a small window is reached right at the start of a conversation, which holds
 * whatever ratio asked for it; overrides that lower the ratio are meant for 1M-token models,
 * which the floor does not touch, and overrides that raise it (0.85 for a 272K route) win anyway.
 */
export function computeContextBudget(input: ContextBudgetInput): ContextBudget {
  const parsed = BudgetInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "input";
    throw new Error(`invalid context budget: ${where}: ${issue?.message ?? "invalid value"}`);
  }
  const o = parsed.data;
  let thresholdUsed = o.perModelThreshold ?? o.threshold;
  let thresholdSource: ContextBudget["thresholdSource"] =
    o.perModelThreshold !== undefined ? "per-model" : "default";
  if (o.contextWindow < SMALL_WINDOW_TOKENS && thresholdUsed < THRESHOLD_FLOOR) {
    thresholdUsed = THRESHOLD_FLOOR;
    thresholdSource = "floor";
  }
  const triggerTokens = Math.floor(o.contextWindow * thresholdUsed);
  return {
    window: o.contextWindow,
    triggerTokens,
    tailBudgetTokens: Math.floor(triggerTokens * o.tailRatio),
    summaryCapTokens: Math.min(Math.floor(o.contextWindow * SUMMARY_WINDOW_RATIO), o.summaryCapTokens),
    gatewayTokens: Math.floor(o.contextWindow * GATEWAY_RATIO),
    protectLastN: o.protectLastN,
    headMessages: o.headMessages,
    thresholdUsed,
    thresholdSource,
  };
}
