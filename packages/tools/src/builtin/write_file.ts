// The `write_file` tool: whole-file write with parent folders created and an atomic replace.
import { z } from "zod";
import { defineTool } from "../define.js";
import { pathOf } from "../terminal/scope.js";

const parameters = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the working directory."),
  content: z.string().describe("The complete new content of the file."),
});

export default defineTool({
  name: "write_file",
  toolset: "file",
  label: "Write",
  effect: "mutate",
  // Judged on the real path (a symlink to ~/.bashrc is ~/.bashrc), and written there.
  approvalAccess: (args, ctx) => [{ kind: "write", path: pathOf(ctx, args.path) }],
  description:
    "Create or overwrite a file with the given content (parent folders are created; the old file is " +
    "replaced atomically). For small edits to an existing file prefer patch.",
  parameters,
  async execute(args, ctx) {
    const file = await ctx.workspace.realPath(pathOf(ctx, args.path));
    try {
      // Atomically on the workspace; through the editor when it owns the files (its buffer shows the edit).
      const bytes = await ctx.workspace.writeFile(file, args.content, ctx.signal);
      return `Wrote ${bytes} bytes to ${file}.`;
    } catch (err) {
      return { content: `Error: could not write ${file}: ${(err as Error).message}`, isError: true };
    }
  },
});
