import { z } from "zod";
import { browserAvailable, pageLine, refParam, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_select",
  toolset: "browser",
  available: browserAvailable,
  description: "Choose options (by value or label) in the select element with this ref.",
  parameters: z.object({ ref: refParam, values: z.array(z.string()).min(1).max(100) }),
  effect: "mutate",
  execute: ({ ref, values }, ctx) =>
    withBrowser(ctx, async (b) => {
      const chosen = await (await b.ref(ref)).selectOption(values, { timeout: b.timeoutMs });
      return `Selected ${chosen.join(", ")} in ${ref}. ${await pageLine(b.page)}`;
    }),
});
