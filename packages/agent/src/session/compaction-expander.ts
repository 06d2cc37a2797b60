// The H5 expansion hook over the store: a server-side compaction item (a provider's opaque
// `compaction` item, readable only by the route that made it) is replaced, when another route
// is the target, by the conversation it stands for, following the store's compaction pointers.
// Iris's own summaries are plain text every route reads: they are never expanded.
import { type ExpandHook, type Message, sameRoute } from "@iris/llm";
import type { Store } from "@iris/store";
import { compactionNodes, messagesOfPath } from "./store-conversation.js";

function isServerCompaction(m: Message): boolean {
  return (
    m.role === "assistant" && m.parts.some((p) => p.type === "reasoning" && p.raw?.["type"] === "compaction")
  );
}

export function compactionExpander(store: Store): ExpandHook {
  return (m, target) => {
    if (!isServerCompaction(m) || m.role !== "assistant" || sameRoute(m.origin, target)) return undefined;
    const node = compactionNodes.get(m);
    // No pointer: the item cannot be read and stands for nothing we have; it is dropped.
    if (!node?.expandsTo) return [];
    return messagesOfPath(store.expandCompaction(node.id).nodes).filter((o) => o !== m);
  };
}
