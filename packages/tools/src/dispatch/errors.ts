// Every failure the model sees is one JSON object string (T3), never a stack trace.
import type { ToolImage } from "../define.js";

export interface ToolCallResult {
  content: string;
  isError: boolean;
  /** Images the tool shows the model (a screenshot); sent as image parts of the result. */
  images?: ToolImage[];
  /**
   * The turn was aborted and the tool did not settle within the grace period: it may still be
   * running, so whether it took effect is unknown (its receipt must stay open, SPEC D4).
   */
  uncertain?: true;
}

export function errorResult(error: string, extra: Record<string, unknown> = {}): ToolCallResult {
  return { content: JSON.stringify({ error, ...extra }), isError: true };
}

/** The message of whatever was thrown, without the stack. */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === "string") return thrown;
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    return String(thrown);
  }
}
