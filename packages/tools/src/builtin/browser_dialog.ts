import { z } from "zod";
import { browserAvailable, withBrowser } from "../browser/run.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "browser_dialog",
  toolset: "browser",
  available: browserAvailable,
  description: "Answer the open alert, confirm or prompt dialog: accept (with text for a prompt) or dismiss.",
  parameters: z.object({ accept: z.boolean(), text: z.string().max(10_000).optional() }),
  effect: "mutate",
  execute: ({ accept, text }, ctx) =>
    withBrowser(ctx, async ({ session }) => {
      const open = session.dialog;
      if (!open) return { content: "Error: no dialog is open", isError: true };
      session.dialog = undefined;
      const what = `${open.dialog.type()} ${JSON.stringify(open.dialog.message())}`;
      if (accept) await open.dialog.accept(text);
      else await open.dialog.dismiss();
      return `${accept ? "Accepted" : "Dismissed"} the ${what}.`;
    }),
});
