// Resuming a stored session (SPEC D4): `answers` (an API client's results for the calls of its
// own tools) are appended first, then calls a killed process left open are closed. While another
// turn runs in the session its open calls are that turn's, not a crash's: the repair waits for the
// resumer's own turn, and answers are refused (SessionBusyError) rather than written beside it.
import { type RepairedCall, repairInterruptedCalls } from "@iris/agent";
import type { Message } from "@iris/llm";
import type { SessionRow, Store } from "@iris/store";
import { findSession } from "./session-finder.js";
import { type HeldTurn, SessionBusyError, type TurnLocks } from "./session-turn-lock.js";

export interface Resumed {
  row: SessionRow;
  /** What the repair closed; undefined: another turn runs, repair at the next send. */
  repaired: RepairedCall[] | undefined;
}

export async function resumeStored(
  store: Store,
  turns: TurnLocks,
  ref: string,
  answers: readonly Message[],
): Promise<Resumed | undefined> {
  const found = await findSession(store, ref, { follow: false });
  if (!found.ok) return undefined;
  const { row } = found;
  let held: HeldTurn | undefined;
  try {
    held = await turns.take(store, row.id);
  } catch (err) {
    if (!(err instanceof SessionBusyError) || answers.length > 0) throw err;
    return { row, repaired: undefined };
  }
  try {
    for (const message of answers) await store.appendNode(row.id, { kind: "message", message });
    return { row, repaired: (await repairInterruptedCalls(store, row.id)).repaired };
  } finally {
    await held.release();
  }
}

/** The repair deferred by a resume, run under the resumer's own turn. */
export async function repairNow(store: Store, sessionId: string): Promise<RepairedCall[]> {
  return (await repairInterruptedCalls(store, sessionId)).repaired;
}
