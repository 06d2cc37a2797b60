// Fakes of four search APIs (SearXNG, Brave, Tavily, Exa) on 127.0.0.1, port 0, each speaking
// its real wire format and at least as strict: a missing or wrong key, an empty query, a bad
// count, a wrong method or body are refused with the status the real API gives. The corpus is the
// local test site's pages, so a search result's URL can be read with web_extract.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SitePage } from "./pages.js";

export type SearchApi = "searxng" | "brave" | "tavily" | "exa";

export interface SearchFake {
  baseUrl: string;
  api: SearchApi;
  /** Every request: method, path with query, headers, body. */
  requests: {
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }[];
  /** The next `times` searches answer 429 with this Retry-After. */
  rateLimit(retryAfter: string, times?: number): void;
  close(): Promise<void>;
}

export interface SearchFakeOptions {
  api: SearchApi;
  /** Pages to search and the site's base URL for their URLs. */
  corpus: { baseUrl: string; pages: readonly SitePage[] };
  /** The key the fake accepts (not used by searxng). */
  apiKey?: string;
}

interface Doc {
  title: string;
  url: string;
  snippet: string;
}

function match(query: string, o: SearchFakeOptions): Doc[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return o.corpus.pages
    .filter((p) => words.some((w) => `${p.title} ${p.text}`.toLowerCase().includes(w)))
    .map((p) => ({ title: p.title, url: `${o.corpus.baseUrl}${p.path}`, snippet: p.text }));
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  void res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

type Answer = { status: number; body: unknown };

function searxng(req: IncomingMessage, url: URL): Answer {
  if (req.method !== "GET" || url.pathname !== "/search")
    return { status: 404, body: { error: "not found" } };
  if (url.searchParams.get("format") !== "json") return { status: 403, body: "Forbidden" };
  const q = url.searchParams.get("q") ?? "";
  // SearXNG answers an empty q with 400 (Hermes #72270).
  if (q.trim() === "") return { status: 400, body: { error: "search query is empty" } };
  return {
    status: 200,
    body: {
      query: q,
      number_of_results: 0,
      results: [] as unknown[],
      answers: [],
      suggestions: [],
      unresponsive_engines: [],
    },
  };
}

function brave(req: IncomingMessage, url: URL, key: string | undefined): Answer {
  if (req.method !== "GET" || url.pathname !== "/res/v1/web/search")
    return { status: 404, body: { type: "ErrorResponse" } };
  if (req.headers["x-subscription-token"] !== key)
    return {
      status: 401,
      body: { type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID", status: 401 } },
    };
  const q = url.searchParams.get("q") ?? "";
  const count = Number(url.searchParams.get("count") ?? "20");
  if (q.trim() === "" || q.length > 400 || !Number.isInteger(count) || count < 1 || count > 20)
    return { status: 422, body: { type: "ErrorResponse", error: { code: "VALIDATION", status: 422 } } };
  return {
    status: 200,
    body: { type: "search", query: { original: q }, web: { type: "search", results: [] as unknown[] } },
  };
}

function postJson(req: IncomingMessage, url: URL, body: string): Record<string, unknown> | Answer {
  if (req.method !== "POST" || url.pathname !== "/search")
    return { status: 404, body: { error: "not found" } };
  if (!String(req.headers["content-type"] ?? "").startsWith("application/json"))
    return { status: 400, body: { error: "content-type must be application/json" } };
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {}
  return { status: 400, body: { error: "invalid JSON body" } };
}

export async function startSearchFake(o: SearchFakeOptions): Promise<SearchFake> {
  const requests: SearchFake["requests"] = [];
  let limited: { retryAfter: string; times: number } | undefined;
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    if (limited && limited.times > 0) {
      limited.times--;
      return json(res, 429, { error: "rate limited" }, { "retry-after": limited.retryAfter });
    }
    const url = new URL(req.url ?? "/", "http://fake");
    let a: Answer;
    if (o.api === "searxng") {
      a = searxng(req, url);
      if (a.status === 200)
        (a.body as { results: unknown[] }).results = match(url.searchParams.get("q") ?? "", o).map((d) => ({
          url: d.url,
          title: d.title,
          content: d.snippet,
          engine: "fake",
          engines: ["fake"],
          score: 1,
        }));
    } else if (o.api === "brave") {
      a = brave(req, url, o.apiKey);
      if (a.status === 200)
        (a.body as { web: { results: unknown[] } }).web.results = match(url.searchParams.get("q") ?? "", o)
          .slice(0, Number(url.searchParams.get("count") ?? 20))
          .map((d) => ({
            title: d.title,
            url: d.url,
            description: `<strong>${d.snippet}</strong>`,
            type: "search_result",
          }));
    } else {
      const parsed = postJson(req, url, body);
      if ("status" in parsed && typeof parsed.status === "number") a = parsed as Answer;
      else a = o.api === "tavily" ? tavily(req, parsed, o) : exa(req, parsed, o);
    }
    json(res, a.status, a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    api: o.api,
    requests,
    rateLimit: (retryAfter, times = 1) => {
      limited = { retryAfter, times };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function tavily(req: IncomingMessage, b: Record<string, unknown>, o: SearchFakeOptions): Answer {
  if (req.headers.authorization !== `Bearer ${o.apiKey}`)
    return { status: 401, body: { detail: { error: "Unauthorized: missing or invalid API key." } } };
  const q = b.query;
  const max = b.max_results ?? 5;
  if (typeof q !== "string" || q.trim() === "")
    return { status: 400, body: { detail: { error: "Query is missing." } } };
  if (typeof max !== "number" || !Number.isInteger(max) || max < 0 || max > 20)
    return { status: 400, body: { detail: { error: "max_results must be 0..20" } } };
  const results = match(q, o)
    .slice(0, max)
    .map((d) => ({ title: d.title, url: d.url, content: d.snippet, score: 0.9, raw_content: null }));
  return { status: 200, body: { query: q, answer: null, images: [], results, response_time: 0.1 } };
}

function exa(req: IncomingMessage, b: Record<string, unknown>, o: SearchFakeOptions): Answer {
  if (req.headers["x-api-key"] !== o.apiKey) return { status: 401, body: { error: "Invalid API key" } };
  const q = b.query;
  const n = b.numResults ?? 10;
  if (typeof q !== "string" || q.trim() === "") return { status: 400, body: { error: "query is required" } };
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 100)
    return { status: 400, body: { error: "numResults must be 1..100" } };
  const results = match(q, o)
    .slice(0, n)
    .map((d, i) => ({
      id: d.url,
      title: d.title,
      url: d.url,
      score: 1 - i / 10,
      highlights: [d.snippet],
      highlightScores: [0.5],
    }));
  return { status: 200, body: { requestId: "fake", resolvedSearchType: "neural", results } };
}
