// The pages the web tools have read, for the `local` search backend (SPEC T): a port, so the host
// can keep them in the profile's store (every later process searches them) while a tool
// environment without one keeps them in memory. Text is split into words, and into
// two-character pieces for Korean, Chinese and Japanese, which have no spaces between words.
/** A search result ({title, url, snippet}, as types.ts's SearchResult; not imported: no cycle). */
interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface PageIndex {
  /** A page web_extract (or the browser) has read. Never throws: a page not kept is only not found later. */
  add(url: string, title: string, text: string): void;
  search(query: string, count: number): Promise<SearchResult[]>;
}

const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The search terms of `text`: lower-case words, CJK words as overlapping two-character pieces. */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (CJK.test(word) && word.length > 1)
      for (let i = 0; i + 1 < word.length; i++) out.push(word.slice(i, i + 2));
    else out.push(word);
  }
  return out;
}

/** The terms a page is indexed under: the title counts three times. */
export function pageTerms(title: string, text: string): string[] {
  return searchTerms(`${title} ${title} ${title} ${text}`);
}

/** About 240 characters of `text` around the first query term found. */
export function pageSnippet(text: string, query: string[]): string {
  const lower = text.toLowerCase();
  const at = Math.max(0, Math.min(...query.map((q) => lower.indexOf(q)).filter((i) => i >= 0), text.length));
  const start = Math.max(0, at - 80);
  return text
    .slice(start, start + 240)
    .replace(/\s+/g, " ")
    .trim();
}

interface IndexedPage {
  url: string;
  title: string;
  text: string;
  terms: Map<string, number>;
}

/** A process-local index of the newest `max` pages (tests, and a host without a store). */
export function memoryPageIndex(max = 500): PageIndex {
  const pages = new Map<string, IndexedPage>();
  return {
    add(url, title, text) {
      const terms = new Map<string, number>();
      for (const t of pageTerms(title, text)) terms.set(t, (terms.get(t) ?? 0) + 1);
      pages.delete(url);
      pages.set(url, { url, title, text, terms });
      while (pages.size > max) pages.delete(pages.keys().next().value as string);
    },
    async search(query, count) {
      const q = [...new Set(searchTerms(query))];
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
        .map(({ page }) => ({ title: page.title, url: page.url, snippet: pageSnippet(page.text, q) }));
    },
  };
}
