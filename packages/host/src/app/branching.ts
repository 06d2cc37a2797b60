// Editing an earlier user message branches the conversation instead of mixing old answers in
// (SPEC D3, U9): the store's branch API moves the active leaf to the message's parent, so the
// next message sent becomes its sibling; the old branch stays in the store, readable.
import { isSummaryMessage } from "@iris/agent";
import { textOf } from "@iris/llm";
import type { NodeRow, Store } from "@iris/store";

export interface UserTurn {
  /** 1 = the oldest user message of the active path. */
  number: number;
  node: NodeRow;
  preview: string;
}

/** The user messages of the session's active path, numbered from 1 (summaries left out). */
export async function userTurns(store: Store, sessionId: string): Promise<UserTurn[]> {
  const out: UserTurn[] = [];
  for (const node of await store.activePath(sessionId)) {
    const m = node.message;
    if (node.kind !== "message" || m?.role !== "user" || isSummaryMessage(m)) continue;
    const text = textOf(m.content).replace(/\s+/g, " ").trim();
    out.push({ number: out.length + 1, node, preview: text.length > 60 ? `${text.slice(0, 57)}...` : text });
  }
  return out;
}

/**
 * Moves the session to just before user message `n`; the next message sent replaces it on a new
 * branch. An error names why not (no such message, or the first message of the session, which
 * has nothing before it to branch from: start a new session instead).
 */
export async function branchBefore(
  store: Store,
  sessionId: string,
  n: number,
): Promise<{ ok: true; turn: UserTurn } | { ok: false; error: string }> {
  const turns = await userTurns(store, sessionId);
  const turn = turns[n - 1];
  if (!Number.isInteger(n) || !turn) {
    return {
      ok: false,
      error: `no user message ${n} in this session (it has ${turns.length}; /branch lists them)`,
    };
  }
  if (turn.node.parentId === null) {
    return {
      ok: false,
      error: "message 1 opens the session and has nothing before it to branch from; use /new",
    };
  }
  await store.branchFrom(turn.node.parentId);
  return { ok: true, turn };
}
