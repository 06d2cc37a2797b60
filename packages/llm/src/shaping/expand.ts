// Server-side compaction items the target cannot read go back to their pre-compaction
// originals (SPEC H5). The store knows the pointers, so the caller supplies the hook; here it is
// applied repeatedly (an original may itself start with a compaction), with cycle protection
// against damaged pointers.
import type { Message } from "../types.js";
import type { ShapeTarget } from "./target.js";

/**
 * Returns the originals a message stands for when the target cannot read it, or undefined to
 * keep it as it is. An empty list drops it (an old compaction with no pointer, say).
 */
export type ExpandHook = (message: Message, target: ShapeTarget) => readonly Message[] | undefined;

/** Nesting deeper than this is treated as a damaged chain. */
export const MAX_EXPANSION_DEPTH = 32;

export interface ExpandReport {
  messages: Message[];
  expanded: number;
  notes: string[];
}

export function expandCompactions(
  history: readonly Message[],
  target: ShapeTarget,
  expand: ExpandHook,
): ExpandReport {
  const report: ExpandReport = { messages: [], expanded: 0, notes: [] };
  // Content keys, not object identity: a store may hand out fresh objects for the same node.
  const seen = new Set<string>();
  const visit = (m: Message, depth: number): void => {
    const originals = expand(m, target);
    if (originals === undefined) {
      report.messages.push(m);
      return;
    }
    const key = JSON.stringify(m);
    if (seen.has(key) || depth >= MAX_EXPANSION_DEPTH) {
      report.notes.push(
        seen.has(key)
          ? "compaction item expands into itself (cycle): dropped"
          : `compaction nesting deeper than ${MAX_EXPANSION_DEPTH}: dropped`,
      );
      return;
    }
    seen.add(key);
    report.expanded++;
    for (const o of originals) visit(o, depth + 1);
  };
  for (const m of history) visit(m, 0);
  return report;
}
