// The local backend needs no key and no network: it searches the pages web_extract has read in
// this process (newest 500), by words, and by two-character pieces for Korean, Chinese and
// Japanese text, which has no spaces between words to split on.
import type { SearchBackend, SearchResult } from "./types.js";

interface IndexedPage {
  url: string;
  title: string;
  text: string;
  terms: Map<string, number>;
}

const MAX_PAGES = 500;
const pages = new Map<string, IndexedPage>();

export function indexPage(url: string, title: string, text: string): void {
  pages.delete(url);
  pages.set(url, { url, title, text, terms: termCounts(`${title} ${title} ${title} ${text}`) });
  while (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
}

export function clearLocalIndex(): void {
  pages.clear();
}

const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (CJK.test(word) && word.length > 1)
      for (let i = 0; i + 1 < word.length; i++) out.push(word.slice(i, i + 2));
    else out.push(word);
  }
  return out;
}

function termCounts(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms(text)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

function snippet(text: string, query: string[]): string {
  const lower = text.toLowerCase();
  const at = Math.max(0, Math.min(...query.map((q) => lower.indexOf(q)).filter((i) => i >= 0), text.length));
  const start = Math.max(0, at - 80);
  return text
    .slice(start, start + 240)
    .replace(/\s+/g, " ")
    .trim();
}

export function searchLocal(query: string, count: number): SearchResult[] {
  const q = [...new Set(terms(query))];
  if (q.length === 0) return [];
  const scored: { page: IndexedPage; score: number }[] = [];
  for (const page of pages.values()) {
    let matched = 0;
    let score = 0;
    for (const t of q) {
      const n = page.terms.get(t) ?? 0;
      if (n > 0) matched++;
      score += Math.log(1 + n);
    }
    if (matched > 0) scored.push({ page, score: score * (matched / q.length) });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored
    .slice(0, count)
    .map(({ page }) => ({ title: page.title, url: page.url, snippet: snippet(page.text, q) }));
}

export const local: SearchBackend = {
  name: "local",
  defaultBaseUrl: "local:",
  search: async (r) => searchLocal(r.query, r.count),
};
