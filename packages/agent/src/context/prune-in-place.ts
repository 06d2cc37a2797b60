// Phase 1 without a split (SPEC C3, C4): pruning old tool outputs writes no summary, so there is
// nothing for a child session to start from; splitting for it left dozens of sessions behind a
// long turn. The pruned history is written as a branch of the same session, starting at the
// first message pruning changed: the messages before it are shared, the originals stay on the
// old branch (readable and searchable), and the active path is the pruned one. A later summary
// still splits, pointing its compaction at this branch.
import type { Message } from "@iris/llm";
import type { NodeInput, NodeRow, Store } from "@iris/store";
import { historyNodes } from "./split.js";

/**
 * Makes `pruned` (the session's history as loaded, with some tool outputs pruned) the active
 * path of the session. Returns how many nodes were written (0 when nothing changed).
 */
export async function writePrunedBranch(
  store: Store,
  sessionId: string,
  pruned: readonly Message[],
): Promise<number> {
  const path = await store.activePath(sessionId);
  const history = historyNodes(path);
  if (history.length !== pruned.length) {
    throw new Error(
      `the pruned history has ${pruned.length} messages but the session's path holds ${history.length}`,
    );
  }
  const changed = new Map<NodeRow, Message>();
  history.forEach((node, i) => {
    const message = pruned[i] as Message;
    if (node.kind === "message" && JSON.stringify(node.message) !== JSON.stringify(message))
      changed.set(node, message);
  });
  const first = path.findIndex((n) => changed.has(n));
  if (first < 0) return 0;
  const inputs: NodeInput[] = path.slice(first).map((node, i) => {
    const input: NodeInput = { kind: node.kind };
    if (i === 0) input.parentId = node.parentId;
    const message = changed.get(node) ?? node.message;
    if (message) input.message = message;
    if (node.text !== null) input.text = node.text;
    if (node.origin) input.origin = node.origin;
    if (node.tokens !== null && !changed.has(node)) input.tokens = node.tokens;
    return input;
  });
  // One transaction (appendNodes): the active path is either the old one or the whole pruned one.
  return (await store.appendNodes(sessionId, inputs)).length;
}
