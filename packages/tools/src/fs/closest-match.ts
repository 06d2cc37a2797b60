// When a patch's old text is missing, show the model the region that looks most like it, so it
// can correct its copy instead of guessing. A window of the same number of lines slides over the
// file; each line pair scores 1 when equal after trimming, else its bigram similarity.
import { splitLines } from "./text.js";

export interface ClosestRegion {
  /** 1-based first line of the region. */
  startLine: number;
  lines: string[];
  /** 0..1, the mean line similarity. */
  score: number;
}

// Above this many line comparisons, only exact (trimmed) line equality is scored.
const FUZZY_BUDGET = 2_000_000;

export function findClosestRegion(fileText: string, needle: string): ClosestRegion | undefined {
  const fileLines = splitLines(fileText);
  const needleLines = splitLines(needle).map((l) => l.trim());
  if (fileLines.length === 0 || needleLines.length === 0) return undefined;
  const k = Math.min(needleLines.length, fileLines.length);
  const trimmed = fileLines.map((l) => l.trim());
  const fuzzy = fileLines.length * k <= FUZZY_BUDGET;
  let best: ClosestRegion | undefined;
  for (let start = 0; start + k <= fileLines.length; start++) {
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const a = trimmed[start + j] as string;
      const b = needleLines[j] as string;
      sum += a === b ? 1 : fuzzy ? similarity(a, b) : 0;
    }
    const score = sum / needleLines.length;
    if (!best || score > best.score) {
      best = { startLine: start + 1, lines: fileLines.slice(start, start + k), score };
    }
  }
  return best;
}

/** Dice coefficient over character bigrams, 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = counts.get(g) ?? 0;
    if (n > 0) {
      counts.set(g, n - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}
