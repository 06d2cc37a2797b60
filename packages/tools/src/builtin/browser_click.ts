import { z } from "zod";
import { browserAvailable, pageLine, refParam, settle, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_click",
  toolset: "browser",
  available: browserAvailable,
  description: "Click the element with this ref (from browser_snapshot).",
  parameters: z.object({ ref: refParam }),
  effect: "mutate",
  execute: ({ ref }, ctx) =>
    withBrowser(ctx, async (b) => {
      await (await b.ref(ref)).click({ timeout: b.timeoutMs });
      await settle(b.page);
      return `Clicked ${ref}. ${await pageLine(b.page)}`;
    }),
});
