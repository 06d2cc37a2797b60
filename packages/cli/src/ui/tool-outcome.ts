// How a finished tool call is marked (SPEC E1). A call's isError is false when the tool ran, but
// a command the tool reports as killed, interrupted or timed out did not finish: it is a failure
// to the user (✗ with why), and a non-zero exit code is shown beside the ✓.

export interface ToolOutcome {
  failed: boolean;
  /** One line saying why, or what to notice (the exit code). */
  note?: string;
}

/** The terminal tool's last status line: `[exit code: N]`, `[killed by …]`, `[interrupted; …]`, `[timed out …]`. */
const STATUS_LINE =
  /\n?\[(exit code: (-?\d+)|killed by [^\]]*|interrupted[^\]]*|timed out[^\]]*)\](\n\[working directory is now [^\]]*\])?$/;

export function toolOutcome(name: string, isError: boolean, message?: string, result?: string): ToolOutcome {
  if (isError) return { failed: true, ...(message ? { note: message } : {}) };
  if (name !== "terminal" || result === undefined) return { failed: false };
  const m = STATUS_LINE.exec(result);
  if (!m) return { failed: false };
  const code = m[2];
  if (code !== undefined)
    return code === "0" ? { failed: false } : { failed: false, note: `exit code ${code}` };
  return { failed: true, note: (m[1] ?? "").replace(/;.*$/, "") };
}
