// The `write_file` tool: whole-file write with parent folders created and an atomic replace.
import { z } from "zod";
import { fileWriteSubject } from "../approval/subjects.js";
import { defineTool } from "../define.js";
import { atomicWriteFile } from "../fs/atomic-write.js";
import { resolvePath } from "../fs/paths.js";
import { taskCwdOf } from "../terminal/scope.js";

const parameters = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the working directory."),
  content: z.string().describe("The complete new content of the file."),
});

export default defineTool({
  name: "write_file",
  toolset: "file",
  label: "Write",
  effect: "mutate",
  approvalSubject: (args) => fileWriteSubject(args.path),
  approvalCwd: (ctx) => taskCwdOf(ctx),
  description:
    "Create or overwrite a file with the given content (parent folders are created; the old file is " +
    "replaced atomically). For small edits to an existing file prefer patch.",
  parameters,
  async execute(args, ctx) {
    const file = resolvePath(taskCwdOf(ctx), args.path);
    try {
      const bytes = await atomicWriteFile(file, args.content, ctx.signal);
      return `Wrote ${bytes} bytes to ${file}.`;
    } catch (err) {
      return { content: `Error: could not write ${file}: ${(err as Error).message}`, isError: true };
    }
  },
});
