// web_extract (SPEC T): URLs → clean Markdown with title and final URL, many pages in parallel.
// A page that fails is an error line of its own; the others still come back.
import { z } from "zod";
import { defineTool } from "../define.js";
import { EMPTY_TOOL_ENVIRONMENT } from "../environment.js";
import { type ExtractedPage, extractPage, mapLimit } from "../web/extract.js";
import { untrusted } from "../web/untrusted.js";

const MAX_URLS = 10;

export const webExtractParams = z.object({
  urls: z
    .array(z.string().min(1).max(4096))
    .min(1, "give at least one URL")
    .max(MAX_URLS, `at most ${MAX_URLS} URLs per call`)
    .describe("http(s) URLs to read"),
});

export default defineTool({
  name: "web_extract",
  toolset: "web",
  description:
    "Read web pages (HTML or PDF) as clean Markdown: navigation and ads removed, tables and code kept, links absolute. Give one or more URLs; each comes back with its title and final URL.",
  parameters: webExtractParams,
  effect: "read",
  parallelSafe: true,
  label: "reading",
  execute: async ({ urls }, ctx) => {
    const env = ctx.environment ?? EMPTY_TOOL_ENVIRONMENT;
    const o = env.web.extract;
    const results = await mapLimit(urls, o.concurrency, async (url) => {
      try {
        ctx.progress({ message: url });
        const page = await extractPage(env.fetch, url, {
          maxChars: o.maxChars,
          timeoutMs: o.timeoutSeconds * 1000,
          signal: ctx.signal,
        });
        env.pages.add(page.finalUrl, page.title, page.content);
        return { ok: true as const, page };
      } catch (err) {
        return { ok: false as const, url, error: err instanceof Error ? err.message : String(err) };
      }
    });
    const failed = results.filter((r) => !r.ok).length;
    const text = results
      .map((r) => (r.ok ? renderPage(r.page) : `## ${r.url}\nError: ${r.error}`))
      .join("\n\n");
    return { content: text, isError: failed === results.length };
  },
});

function renderPage(p: ExtractedPage): string {
  const head = [
    `## ${p.title || p.finalUrl}`,
    `URL: ${p.finalUrl}`,
    ...(p.finalUrl !== p.url ? [`Requested: ${p.url}`] : []),
    ...(p.byline ? [`By: ${p.byline}`] : []),
    ...(p.lang ? [`Language: ${p.lang}`] : []),
    ...(p.note ? [`Note: ${p.note}`] : []),
  ].join("\n");
  return `${head}\n\n${untrusted(p.finalUrl, p.content)}`;
}
