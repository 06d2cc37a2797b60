// Cost of one API call in USD from its usage and the route's prices (SPEC F).
import type { Usage } from "../types.js";
import type { ModelInfo } from "./types.js";

/**
 * `usage.inputTokens` includes the cached parts: the uncached rest is charged at the input
 * price, cache reads and writes at their own prices. Output (reasoning included) at the
 * output price.
 */
export function estimateCost(usage: Usage, info: Pick<ModelInfo, "price">): number {
  const { price } = info;
  const cacheRead = Math.max(0, usage.cacheReadTokens);
  const cacheWrite = Math.max(0, usage.cacheWriteTokens);
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const micro =
    uncached * price.input +
    cacheRead * price.cacheRead +
    cacheWrite * price.cacheWrite +
    Math.max(0, usage.outputTokens) * price.output;
  return micro / 1_000_000;
}
