// Whether a pid is a live process, for tests and diagnostics. A zombie (exited, not yet reaped:
// common in containers whose PID 1 does not reap) counts as gone.
import { readFileSync } from "node:fs";

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 3, after the parenthesised command name, is the state letter.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return true; // no /proc: trust the signal check
  }
}

/** Resolves once `cond()` holds, checking every `stepMs`; rejects after `limitMs` (a safety net). */
export async function waitUntil(cond: () => boolean, limitMs = 10_000, stepMs = 20): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
