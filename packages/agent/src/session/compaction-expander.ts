// The H5 expansion hook over the store: a server-side compaction item (a provider's opaque
// `compaction` item, readable only by the route that made it) is replaced, when another route
// is the target, by the conversation it stands for, following the store's compaction pointers
// (read when the path was loaded: store-conversation.ts). Iris's own summaries are plain text
// every route reads: they are never expanded.
import { type ExpandHook, sameRoute } from "@iris/llm";
import { compactionExpansions, compactionNodes, isServerCompaction } from "./store-conversation.js";

export function compactionExpander(): ExpandHook {
  return (m, target) => {
    if (!isServerCompaction(m) || m.role !== "assistant" || sameRoute(m.origin, target)) return undefined;
    const node = compactionNodes.get(m);
    // No pointer: the item cannot be read and stands for nothing we have; it is dropped.
    if (!node?.expandsTo) return [];
    return compactionExpansions.get(m) ?? [];
  };
}
