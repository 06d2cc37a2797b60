// One search backend per file (SPEC T); each turns its API's answer into {title, url, snippet}.
import type { WebFetch, WebResponse } from "../http.js";
import type { PageIndex } from "./page-index.js";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  query: string;
  count: number;
  baseUrl: string;
  key: string | undefined;
  fetch: WebFetch;
  signal: AbortSignal;
  /** The pages read so far (the local backend searches them). */
  pages: PageIndex;
}

export interface SearchBackend {
  name: string;
  /** The variable that holds the key when web.search.api_key_env does not name one; none: no key. */
  keyEnv?: string;
  /** Where the API is when web.search.base_url is unset; none: base_url is required. */
  defaultBaseUrl?: string;
  search(r: SearchRequest): Promise<SearchResult[]>;
}

export class SearchRateLimited extends Error {
  constructor(
    readonly backend: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`${backend} is rate limiting (HTTP 429); retry after ${retryAfterSeconds} s`);
    this.name = "SearchRateLimited";
  }
}

export class SearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchError";
  }
}

/** The API's JSON answer, or a SearchError naming the status (429 becomes SearchRateLimited). */
export function jsonOf(backend: string, res: WebResponse): unknown {
  if (res.status === 429) throw new SearchRateLimited(backend, retryAfter(res.headers["retry-after"]));
  if (res.status === 401 || res.status === 403)
    throw new SearchError(`${backend} refused the key (HTTP ${res.status}); check web.search.api_key_env`);
  if (res.status >= 400)
    throw new SearchError(`${backend} answered HTTP ${res.status}: ${res.text().slice(0, 300)}`);
  try {
    return JSON.parse(res.text());
  } catch {
    throw new SearchError(
      `${backend} answered something that is not JSON (${res.headers["content-type"] ?? "no type"})`,
    );
  }
}

/** Seconds from a Retry-After header (seconds or an HTTP date); 60 when absent or unreadable. */
export function retryAfter(value: string | undefined, now = Date.now()): number {
  if (!value) return 60;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? 60 : Math.max(0, Math.ceil((at - now) / 1000));
}

export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
