// One URL → a page the model can read (SPEC T): fetch (redirects, charset, private-address guard),
// a content-type gate (HTML and text pages, PDFs; anything else is an error naming the type), the
// Markdown pipeline, then a character cap with a note saying how much was cut.

import { htmlToMarkdown } from "./html-to-markdown.js";
import type { WebFetch } from "./http.js";
import { pdfToText } from "./pdf-to-text.js";

export interface ExtractedPage {
  url: string;
  finalUrl: string;
  title: string;
  content: string;
  /** Set when the page was cut: what the model is told. */
  note?: string;
  byline?: string;
  lang?: string;
}

export interface ExtractOptions {
  maxChars: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Raw bytes read per page: HTML is mostly markup, so well above the Markdown cap. */
const MAX_BYTES = 10_000_000;

export class ExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractError";
  }
}

export async function extractPage(fetch: WebFetch, url: string, o: ExtractOptions): Promise<ExtractedPage> {
  const res = await fetch(url, {
    timeoutMs: o.timeoutMs,
    maxBytes: MAX_BYTES,
    headers: { accept: "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5" },
    ...(o.signal ? { signal: o.signal } : {}),
  });
  if (res.status >= 400)
    throw new ExtractError(`${url}: HTTP ${res.status}${res.url !== url ? ` (at ${res.url})` : ""}`);
  const type = (res.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const rawCut = res.truncated ? ` The download stopped at ${MAX_BYTES / 1_000_000} MB.` : "";
  let page: ExtractedPage;
  if (type === "application/pdf" || (type === "" && res.body.subarray(0, 5).toString("latin1") === "%PDF-")) {
    if (res.truncated) throw new ExtractError(`${url}: the PDF is larger than ${MAX_BYTES / 1_000_000} MB`);
    const pdf = await pdfToText(res.body);
    page = { url, finalUrl: res.url, title: pdf.title || lastSegment(res.url), content: pdf.text };
  } else if (type === "text/html" || type === "application/xhtml+xml" || type === "") {
    const md = await htmlToMarkdown(res.text(), res.url);
    page = {
      url,
      finalUrl: res.url,
      title: md.title,
      content: md.markdown,
      ...(md.byline ? { byline: md.byline } : {}),
      ...(md.lang ? { lang: md.lang } : {}),
    };
  } else if (type.startsWith("text/") || type === "application/json" || type.endsWith("+json")) {
    page = { url, finalUrl: res.url, title: lastSegment(res.url), content: res.text() };
  } else {
    throw new ExtractError(`${url}: ${type} is not a page (web_extract reads HTML, text and PDF)`);
  }
  return capPage(page, o.maxChars, rawCut);
}

function capPage(page: ExtractedPage, maxChars: number, rawCut: string): ExtractedPage {
  if (page.content.length <= maxChars) return rawCut ? { ...page, note: rawCut.trim() } : page;
  const total = page.content.length;
  return {
    ...page,
    content: page.content.slice(0, maxChars),
    note: `Cut at ${maxChars} of ${total} characters (web.extract.max_chars).${rawCut}`,
  };
}

function lastSegment(url: string): string {
  try {
    const u = new URL(url);
    return decodeURIComponent(u.pathname.split("/").filter(Boolean).pop() ?? u.hostname);
  } catch {
    return url;
  }
}

/** Runs `fn` over `items` with at most `limit` at once, keeping the order of the results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
