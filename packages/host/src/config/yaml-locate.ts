// Maps a key path (as zod reports it) to the line and column in the YAML text, so an error can
// say where to look. When the path does not exist (a missing key), the nearest enclosing key is used.
import type { Document, LineCounter, Node, Pair } from "yaml";
import { yaml } from "./yaml-lib.js";

export interface Position {
  line: number;
  column: number;
}

function keyOf(pair: Pair): unknown {
  const { isScalar } = yaml();
  return isScalar(pair.key) ? pair.key.value : pair.key;
}

function positionOf(node: { range?: [number, number, number] | null } | null | undefined, lc: LineCounter) {
  const offset = node?.range?.[0];
  if (offset === undefined) return undefined;
  const { line, col } = lc.linePos(offset);
  return { line, column: col };
}

/**
 * `at: "key"` points at the key itself (unknown keys); `at: "value"` at the value, falling back
 * to its key when the value is empty (`name:` with nothing after it).
 */
export function locatePath(
  doc: Document,
  path: readonly PropertyKey[],
  lc: LineCounter,
  at: "key" | "value" = "value",
): Position {
  const { isMap, isScalar, isSeq } = yaml();
  let node: unknown = doc.contents;
  let lastKey: Node | null = null;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => String(keyOf(p)) === String(seg));
      if (!pair) break;
      const keyNode = isScalar(pair.key) ? pair.key : null;
      if (last && at === "key") return positionOf(keyNode, lc) ?? positionOf(lastKey, lc) ?? start();
      lastKey = keyNode ?? lastKey;
      if (pair.value === null || pair.value === undefined) {
        // An empty value: the key is the best place to point at.
        return positionOf(keyNode, lc) ?? start();
      }
      node = pair.value;
    } else if (isSeq(node) && typeof seg === "number") {
      const item = node.items[seg];
      if (item === undefined || item === null) break;
      node = item;
    } else {
      break;
    }
    if (last) return positionOf(node as Node, lc) ?? positionOf(lastKey, lc) ?? start();
  }
  // The path leaves the document (a missing key): point at the innermost collection that exists.
  return positionOf(node as Node, lc) ?? positionOf(lastKey, lc) ?? start();
}

function start(): Position {
  return { line: 1, column: 1 };
}
