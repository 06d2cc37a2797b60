// browser_screenshot: a PNG of the current tab, given to the model as an image it can see
// (vision models) through the tool result's images; the text says what it shows.

import { prepareImage } from "@iris/llm";
import { z } from "zod";
import { browserAvailable, pageLine, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_screenshot",
  toolset: "browser",
  available: browserAvailable,
  description: "Take a screenshot of the current tab (full_page: the whole page) and look at it.",
  parameters: z.object({ full_page: z.boolean().optional() }),
  effect: "read",
  execute: ({ full_page }, ctx) =>
    withBrowser(ctx, async ({ page }) => {
      const png = await page.screenshot({ type: "png", fullPage: full_page === true });
      // A full page can be far taller than any provider takes: shrunk to their limits here.
      const image = await prepareImage(png, "the screenshot");
      const size = `${image.width}×${image.height} ${image.mediaType === "image/png" ? "PNG" : "JPEG"}`;
      return {
        content: `Screenshot of ${await pageLine(page)} (${size}). If you cannot see images, call vision_analyze with image "browser".`,
        images: [{ mediaType: image.mediaType, data: image.data }],
      };
    }),
});
