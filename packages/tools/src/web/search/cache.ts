// Search answers kept briefly per backend, base URL, query and count (the model often repeats a
// search within a turn), and a rate limit remembered per backend until its Retry-After passes.
import type { SearchResult } from "./types.js";

const MAX_ENTRIES = 200;
const answers = new Map<string, { at: number; results: SearchResult[] }>();
const limitedUntil = new Map<string, number>();

export function cached(key: string, ttlMs: number, now = Date.now()): SearchResult[] | undefined {
  const hit = answers.get(key);
  if (!hit) return undefined;
  if (now - hit.at >= ttlMs) {
    answers.delete(key);
    return undefined;
  }
  return hit.results;
}

export function remember(key: string, results: SearchResult[], now = Date.now()): void {
  answers.delete(key);
  answers.set(key, { at: now, results });
  while (answers.size > MAX_ENTRIES) answers.delete(answers.keys().next().value as string);
}

/** Seconds left of a backend's rate limit, or 0. */
export function limitLeft(backend: string, now = Date.now()): number {
  const until = limitedUntil.get(backend) ?? 0;
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

export function limitFor(backend: string, seconds: number, now = Date.now()): void {
  limitedUntil.set(backend, now + seconds * 1000);
}

export function clearSearchCache(): void {
  answers.clear();
  limitedUntil.clear();
}
