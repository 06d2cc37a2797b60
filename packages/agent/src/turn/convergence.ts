// Detects the same failing tool call repeated without progress (SPEC L5 convergence_detected).
import { parseBoundedJson } from "@iris/llm";

export interface CallOutcome {
  name: string;
  argumentsJson: string;
  isError: boolean;
}

export class ConvergenceDetector {
  private lastKey = "";
  private repeats = 0;

  /** `limit` identical failing calls in a row (default 3) mean the model is stuck. */
  constructor(private readonly limit = 3) {}

  /** Feed each round's outcomes in call order; returns true when the turn should stop. */
  observe(outcomes: CallOutcome[]): boolean {
    for (const o of outcomes) {
      if (!o.isError) {
        this.lastKey = "";
        this.repeats = 0;
        continue;
      }
      const key = `${o.name}\u0000${canonicalJson(o.argumentsJson)}`;
      if (key === this.lastKey) this.repeats += 1;
      else {
        this.lastKey = key;
        this.repeats = 1;
      }
    }
    return this.repeats >= this.limit;
  }
}

/**
 * Same arguments written with other spacing or key order count as the same call; text nested too
 * deep for sortKeys's recursion (E4) is compared as written.
 */
function canonicalJson(text: string): string {
  try {
    return JSON.stringify(sortKeys(parseBoundedJson(text)));
  } catch {
    return text.trim();
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
