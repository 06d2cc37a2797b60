import { z } from "zod";
import { browserAvailable, pageLine, refParam, settle, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_type",
  toolset: "browser",
  available: browserAvailable,
  description:
    "Type text into the field with this ref, replacing what it held; submit: true presses Enter after.",
  parameters: z.object({ ref: refParam, text: z.string().max(100_000), submit: z.boolean().optional() }),
  effect: "mutate",
  execute: ({ ref, text, submit }, ctx) =>
    withBrowser(ctx, async (b) => {
      const field = await b.ref(ref);
      await field.fill(text, { timeout: b.timeoutMs });
      if (submit) {
        await field.press("Enter", { timeout: b.timeoutMs });
        await settle(b.page);
      }
      return `Typed into ${ref}${submit ? " and pressed Enter" : ""}. ${await pageLine(b.page)}`;
    }),
});
