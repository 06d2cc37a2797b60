// Every failure the model sees is one JSON object string (T3), never a stack trace.

export interface ToolCallResult {
  content: string;
  isError: boolean;
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
