import { z } from "zod";
import { browserAvailable, refParam, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_hover",
  toolset: "browser",
  available: browserAvailable,
  description: "Move the mouse over the element with this ref (menus, tooltips).",
  parameters: z.object({ ref: refParam }),
  effect: "read",
  execute: ({ ref }, ctx) =>
    withBrowser(ctx, async (b) => {
      await (await b.ref(ref)).hover({ timeout: b.timeoutMs });
      return `Hovering over ${ref}.`;
    }),
});
