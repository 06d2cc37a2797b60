import { z } from "zod";
import { browserAvailable, pageLine, snapshotText, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";
import { untrusted } from "../web/untrusted.js";

export default defineTool({
  name: "browser_snapshot",
  toolset: "browser",
  available: browserAvailable,
  description:
    "The current page as an accessibility tree with element refs (e5). Compact by default; full: true keeps every wrapper. Refs change when the page does: take a new snapshot after navigating.",
  parameters: z.object({ full: z.boolean().optional() }),
  effect: "read",
  parallelSafe: false,
  execute: ({ full }, ctx) =>
    withBrowser(
      ctx,
      async ({ page }) =>
        `${await pageLine(page)}\n\n${untrusted(page.url(), await snapshotText(page, full === true))}`,
    ),
});
