import { z } from "zod";
import { browserAvailable, pageLine, settle, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_back",
  toolset: "browser",
  available: browserAvailable,
  description: "Go back to the previous page in this tab.",
  parameters: z.object({}),
  effect: "read",
  execute: (_args, ctx) =>
    withBrowser(ctx, async (b) => {
      const r = await b.page.goBack({ waitUntil: "domcontentloaded" });
      await settle(b.page);
      return r
        ? `Went back. ${await pageLine(b.page)}`
        : `No earlier page in this tab. ${await pageLine(b.page)}`;
    }),
});
