// browser_navigate (SPEC T): open a URL in the session's current tab; answers with the page's
// title, URL and its ref-annotated snapshot. Private addresses are refused by the guard proxy.
// A page opened is also kept for the local search backend (its visible text), as web_extract's are.
import { z } from "zod";
import { browserAvailable, pageLine, settle, snapshotText, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";
import { EMPTY_TOOL_ENVIRONMENT } from "../environment.js";
import { untrusted } from "../web/untrusted.js";

export default defineTool({
  name: "browser_navigate",
  toolset: "browser",
  available: browserAvailable,
  description:
    "Open a URL in the browser. Returns the page's accessibility snapshot with element refs (e5) for browser_click, browser_type and the other browser tools.",
  parameters: z.object({ url: z.string().min(1).max(4096).describe("http(s) URL") }),
  effect: "read",
  label: "browsing",
  execute: ({ url }, ctx) =>
    withBrowser(ctx, async ({ page }) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return { content: `Error: not a URL: ${JSON.stringify(url.slice(0, 200))}`, isError: true };
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
        return {
          content: `Error: ${parsed.protocol} URLs are not opened (only http and https)`,
          isError: true,
        };
      const response = await page.goto(parsed.toString(), { waitUntil: "domcontentloaded" });
      await settle(page);
      if (response && response.status() === 403) {
        const body = await response.text().catch(() => "");
        if (body.startsWith("refused ")) return { content: `Error: ${body}`, isError: true };
      }
      if (!response || response.status() < 400) {
        const text = await page
          .locator("body")
          // biome-ignore lint/performance/useDomNodeTextContent: the visible text, not scripts' and styles' source
          .innerText({ timeout: 2_000 })
          .catch(() => "");
        const title = await page.title().catch(() => "");
        if (text.trim())
          (ctx.environment ?? EMPTY_TOOL_ENVIRONMENT).pages.add(page.url(), title, text.slice(0, 100_000));
      }
      const status = response ? ` (HTTP ${response.status()})` : "";
      return `${await pageLine(page)}${status}\n\n${untrusted(page.url(), await snapshotText(page))}`;
    }),
});
