// A page → clean Markdown (SPEC T): linkedom parses, Readability keeps the article (navigation,
// ads, sidebars and scripts go), Turndown with the GFM plugin writes tables and fenced code. The
// libraries load on first use so a run that never reads the web never pays for them.
import type TurndownService from "turndown";

export interface PageText {
  title: string;
  markdown: string;
  byline?: string;
  lang?: string;
}

let turndown: TurndownService | undefined;

async function converter(): Promise<TurndownService> {
  if (turndown) return turndown;
  const { default: Turndown } = await import("turndown");
  const { gfm } = await import("@joplin/turndown-plugin-gfm");
  const t = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  t.use(gfm);
  t.remove(["script", "style", "noscript", "iframe"]);
  turndown = t;
  return t;
}

/** `finalUrl` becomes the document's base, so relative links come out absolute. */
export async function htmlToMarkdown(html: string, finalUrl: string): Promise<PageText> {
  const { parseHTML } = await import("linkedom");
  const { Readability } = await import("@mozilla/readability");
  const based = injectBase(html, finalUrl);
  const { document } = parseHTML(based);
  const lang = document.documentElement?.getAttribute("lang") ?? undefined;
  const fallbackTitle = document.querySelector("title")?.textContent?.trim() ?? "";
  // Readability changes the document it reads; the fallback below parses the page again.
  const article = new Readability(
    document as unknown as ConstructorParameters<typeof Readability>[0],
  ).parse();
  const md = await converter();
  if (article?.content) {
    return {
      title: article.title?.trim() || fallbackTitle,
      markdown: tidy(md.turndown(article.content)),
      ...(article.byline ? { byline: article.byline.trim() } : {}),
      ...((article.lang ?? lang) ? { lang: (article.lang ?? lang) as string } : {}),
    };
  }
  const body = parseHTML(based).document.body?.innerHTML ?? "";
  return { title: fallbackTitle, markdown: tidy(md.turndown(body)), ...(lang ? { lang } : {}) };
}

function injectBase(html: string, url: string): string {
  const tag = `<base href="${url.replace(/"/g, "%22")}">`;
  if (/<base\s/i.test(html)) return html; // the page's own base wins, as in a browser
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (h) => `${h}${tag}`);
  return `${tag}${html}`;
}

function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, "\n\n").trim();
}
