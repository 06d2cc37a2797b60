import { z } from "zod";
import { browserAvailable, pageLine, settle, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_press",
  toolset: "browser",
  available: browserAvailable,
  description: "Press a key on the page (Enter, Escape, Tab, ArrowDown, Control+a, …).",
  parameters: z.object({ key: z.string().min(1).max(64) }),
  effect: "mutate",
  execute: ({ key }, ctx) =>
    withBrowser(ctx, async (b) => {
      await b.page.keyboard.press(key);
      await settle(b.page);
      return `Pressed ${key}. ${await pageLine(b.page)}`;
    }),
});
