import { z } from "zod";
import { browserAvailable, refParam, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_scroll",
  toolset: "browser",
  available: browserAvailable,
  description: "Scroll the page up or down by a screen, or scroll the element with this ref into view.",
  parameters: z.object({ direction: z.enum(["up", "down"]).optional(), ref: refParam.optional() }),
  effect: "read",
  execute: ({ direction, ref }, ctx) =>
    withBrowser(ctx, async (b) => {
      if (ref) {
        await (await b.ref(ref)).scrollIntoViewIfNeeded({ timeout: b.timeoutMs });
        return `Scrolled ${ref} into view.`;
      }
      const dy = direction === "up" ? -1 : 1;
      await b.page.mouse.wheel(0, dy * 700);
      // The page's own scroll position (runs in the browser; the tools package has no DOM types).
      const y = await b.page.evaluate("Math.round(window.scrollY)");
      return `Scrolled ${direction ?? "down"}; now at y=${y}.`;
    }),
});
