// What the client believes about a (provider, model) route (SPEC M1).

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelInfo {
  provider: string;
  model: string;
  /** The route's maximum INPUT tokens (not input + output). */
  contextWindow: number;
  maxOutput: number;
  price: ModelPrice;
  reasoning: boolean;
  vision: boolean;
}

/** Compact table row: [contextWindow, maxOutput, input, output, cacheRead, cacheWrite, flags]. */
export type ModelRow = readonly [number, number, number, number, number, number, number];

export const FLAG_REASONING = 1;
export const FLAG_VISION = 2;

export function infoFromRow(provider: string, model: string, row: ModelRow): ModelInfo {
  const [contextWindow, maxOutput, input, output, cacheRead, cacheWrite, flags] = row;
  return {
    provider,
    model,
    contextWindow,
    maxOutput,
    price: { input, output, cacheRead, cacheWrite },
    reasoning: (flags & FLAG_REASONING) !== 0,
    vision: (flags & FLAG_VISION) !== 0,
  };
}
