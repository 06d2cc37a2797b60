// A fork (ACP's unstable `session/fork`): a new session that starts from another's conversation as it stands,
// so the editor can branch off (a summary, another attempt) without touching the original. The
// copy is an ordinary stored session: the active path's nodes, the frozen system prompt (the
// prompt cache still matches) and the model; spending stays with the original.
import type { NodeInput, Store } from "@iris/store";

/** Titles are stored cut to this many characters. */
export const TITLE_MAX = 200;

/** Copies `sourceId`'s active path into a new session of `source` for `cwd`; returns the new id. */
export async function forkSession(
  store: Store,
  sourceId: string,
  cwd: string,
  sourceName = "acp",
): Promise<string> {
  const source = await store.getSession(sourceId);
  const inputs: NodeInput[] = (await store.activePath(sourceId)).map((n) => ({
    kind: n.kind,
    ...(n.message ? { message: n.message } : {}),
    ...(n.text !== null ? { text: n.text } : {}),
    // A compaction still expands to the original's messages (they stay in the store).
    ...(n.expandsTo !== null ? { expandsTo: n.expandsTo } : {}),
    ...(n.origin ? { origin: n.origin } : {}),
    ...(n.tokens !== null ? { tokens: n.tokens } : {}),
    ...(n.kind === "compaction" ? { parentId: null } : {}),
  }));
  // One write: the fork exists only with its whole history.
  const fork = await store.startSession({
    session: {
      source: sourceName,
      cwd,
      ...(source.systemPrompt !== null ? { systemPrompt: source.systemPrompt } : {}),
      ...(source.model !== null ? { model: source.model } : {}),
      ...(source.provider !== null ? { provider: source.provider } : {}),
      ...(source.title ? { title: `${source.title} (fork)`.slice(0, TITLE_MAX) } : {}),
    },
    nodes: inputs,
  });
  return fork.id;
}
