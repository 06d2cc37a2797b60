// vision_analyze (SPEC T, H4): a model that cannot see images asks the configured vision model
// (vision.model) about one — an image file in the working folder, an http(s) image, or the
// browser's current tab — and reads its answer as text.
import { prepareImage } from "@iris/llm";
import { z } from "zod";
import { browserPool } from "../browser/pool.js";
import { defineTool } from "../define.js";
import { EMPTY_TOOL_ENVIRONMENT, type ToolEnvironment } from "../environment.js";
import { pathOf } from "../terminal/scope.js";

export default defineTool({
  name: "vision_analyze",
  toolset: "vision",
  description:
    'Look at an image with a vision model and get its answer as text: a file path, an http(s) image URL, or "browser" for the browser\'s current tab. Use it when you cannot see an image yourself.',
  parameters: z.object({
    image: z.string().min(1).max(4096).describe('file path, http(s) URL, or "browser"'),
    question: z.string().max(4000).optional().describe("what to look for (default: describe it)"),
  }),
  effect: "read",
  parallelSafe: true,
  label: "looking",
  available: (env: ToolEnvironment) =>
    env.describeImage ? true : "no vision model is configured (set vision.model to provider/model)",
  execute: async ({ image, question }, ctx) => {
    const env = ctx.environment ?? EMPTY_TOOL_ENVIRONMENT;
    if (!env.describeImage)
      return { content: "Error: no vision model is configured (vision.model)", isError: true };
    let bytes: Buffer;
    try {
      if (image === "browser") {
        const session = await browserPool(env).session(ctx.workspace);
        const page = session.pages[session.current];
        if (!page) return { content: "Error: the browser has no open tab", isError: true };
        bytes = await page.screenshot({ type: "png" });
      } else if (/^https?:\/\//i.test(image)) {
        const res = await env.fetch(image, { maxBytes: 20_000_000, signal: ctx.signal });
        if (res.status >= 400) return { content: `Error: ${image}: HTTP ${res.status}`, isError: true };
        bytes = res.body;
      } else {
        // From the session's workspace (the remote host's file on ssh).
        const r = await ctx.workspace.readFile(pathOf(ctx, image), {
          maxBytes: 20_000_000,
          signal: ctx.signal,
        });
        if (!r.ok) return { content: `Error: ${r.message}`, isError: true };
        bytes = r.data;
      }
      const prepared = await prepareImage(bytes, image);
      const answer = await env.describeImage(
        { mediaType: prepared.mediaType, data: prepared.data },
        question ?? "Describe this image in detail: its text, layout, and anything notable.",
        ctx.signal,
        ctx.recordModelCall,
      );
      return `Vision model (${env.vision.model ?? "configured"}) on ${image}:\n${answer}`;
    } catch (err) {
      return { content: `Error: ${err instanceof Error ? err.message : String(err)}`, isError: true };
    }
  },
});
