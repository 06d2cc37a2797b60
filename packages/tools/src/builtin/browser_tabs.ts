import { z } from "zod";
import { browserAvailable, settle, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_tabs",
  toolset: "browser",
  available: browserAvailable,
  description:
    "List the browser's tabs, open a new one (optionally at a URL), switch to one, or close one, by index.",
  parameters: z.object({
    action: z.enum(["list", "new", "select", "close"]),
    index: z.int().min(0).optional(),
    url: z.string().max(4096).optional(),
  }),
  effect: "read",
  execute: ({ action, index, url }, ctx) =>
    withBrowser(ctx, async ({ session }) => {
      if (action === "new") {
        const page = await session.context.newPage();
        session.current = session.pages.indexOf(page);
        if (url) {
          await page.goto(url, { waitUntil: "domcontentloaded" });
          await settle(page);
        }
      } else if (action === "select" || action === "close") {
        const page = index === undefined ? undefined : session.pages[index];
        if (!page)
          return {
            content: `Error: no tab ${index ?? "(give index)"}; there are ${session.pages.length}`,
            isError: true,
          };
        if (action === "select") {
          session.current = index as number;
          await page.bringToFront();
        } else await page.close();
      }
      const lines = await Promise.all(
        session.pages.map(
          async (p, i) =>
            `${i === session.current ? "*" : " "} ${i}: ${(await p.title().catch(() => "")) || "(untitled)"} — ${p.url()}`,
        ),
      );
      return lines.join("\n") || "No tabs.";
    }),
});
