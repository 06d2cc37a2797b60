import { z } from "zod";
import { browserAvailable, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_console",
  toolset: "browser",
  available: browserAvailable,
  description:
    "The current tab's console messages and page errors (newest 200); clear: true empties the list after.",
  parameters: z.object({ clear: z.boolean().optional() }),
  effect: "read",
  execute: ({ clear }, ctx) =>
    withBrowser(ctx, async ({ session, page }) => {
      const lines = session.console.get(page) ?? [];
      const text = lines.length ? lines.join("\n") : "No console messages.";
      if (clear) lines.length = 0;
      return text;
    }),
});
