// Following compaction pointers back to the history they summarised (SPEC D3).
import type { NodeRow } from "./rows.js";

export interface CompactionExpansion {
  /** The original history the compaction stands for, root first (fully expanded where possible). */
  nodes: NodeRow[];
  /** Why expansion stopped early: a pointer loop, a pointer to a missing node, or none. */
  stopped: "cycle" | "missing" | null;
}

/** Where the nodes are read from (an engine's own reads, in process or across the network). */
export interface PathSource {
  find(id: string): NodeRow | undefined | Promise<NodeRow | undefined>;
  pathToRoot(leafId: string): NodeRow[] | Promise<NodeRow[]>;
}

/**
 * Replaces a compaction node by the path it summarised. When that path itself starts with a
 * compaction node, that one is expanded too. Expanded nodes are remembered so a corrupted
 * pointer that loops back ends the walk instead of spinning.
 */
export async function expandCompaction(
  source: PathSource,
  compaction: NodeRow,
): Promise<CompactionExpansion> {
  const seen = new Set<string>();
  let current = compaction;
  let suffix: NodeRow[] = [];
  for (;;) {
    seen.add(current.id);
    const target = current.expandsTo;
    if (target === null) return { nodes: [current, ...suffix], stopped: null };
    if (!(await source.find(target))) return { nodes: [current, ...suffix], stopped: "missing" };
    const path = await source.pathToRoot(target);
    const head = path[0];
    if (head?.kind !== "compaction" || head.expandsTo === null) {
      return { nodes: [...path, ...suffix], stopped: null };
    }
    if (seen.has(head.id)) return { nodes: [...path, ...suffix], stopped: "cycle" };
    suffix = [...path.slice(1), ...suffix];
    current = head;
  }
}
