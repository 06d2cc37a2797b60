// The `read_file` tool: numbered lines with offset/limit paging; binary and huge files refused.
import { z } from "zod";
import { defineTool } from "../define.js";
import { describeBinary, isBinaryContent } from "../fs/binary.js";
import { cutLine, numberLine, splitLines } from "../fs/text.js";
import { pathOf } from "../terminal/scope.js";
import type { Workspace } from "../workspace/types.js";

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Larger files are refused: reading them whole would stall the agent and flood the context. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** One page stops early at this many characters, so a page never floods the context. */
export const MAX_PAGE_CHARS = 100_000;

const parameters = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the working directory."),
  offset: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of lines (default ${DEFAULT_READ_LIMIT}).`),
});

function error(message: string) {
  return { content: `Error: ${message}`, isError: true };
}

export default defineTool({
  name: "read_file",
  toolset: "file",
  label: "Read",
  effect: "read",
  truncationHint: "use offset and limit to read the rest",
  parallelSafe: true,
  description:
    "Read a text file as numbered lines (`LINE|text`), paged with offset/limit " +
    `(default ${DEFAULT_READ_LIMIT} lines). Long lines are cut. Binary (non-UTF-8) files are described by type and size, not shown.`,
  parameters,
  // Judged on the real path: credentials and reads outside the work folder are asked about.
  approvalAccess: (args, ctx) => [{ kind: "read", path: pathOf(ctx, args.path) }],
  async execute(args, ctx) {
    const file = pathOf(ctx, args.path);
    const text = await readText(ctx.workspace, file, ctx.signal);
    if (typeof text !== "string") return text;
    const lines = splitLines(text);
    if (lines.length === 0) return `(${file} is empty)`;
    const offset = args.offset ?? 1;
    if (offset > lines.length) {
      return error(`offset ${offset} is past the end: ${file} has ${lines.length} lines.`);
    }
    const limit = args.limit ?? DEFAULT_READ_LIMIT;
    const end = Math.min(lines.length, offset - 1 + limit);
    const out: string[] = [];
    let chars = 0;
    let next = end + 1;
    for (let n = offset; n <= end; n++) {
      const line = numberLine(n, cutLine(lines[n - 1] as string, MAX_LINE_CHARS));
      if (chars + line.length > MAX_PAGE_CHARS && out.length > 0) {
        next = n;
        break;
      }
      out.push(line);
      chars += line.length + 1;
    }
    if (next <= lines.length) {
      out.push(`[${lines.length - next + 1} more lines; continue with offset ${next}]`);
    }
    return out.join("\n");
  },
});

/** The file's text from the workspace (an editor's unsaved buffer included), or the error result that says why not. */
async function readText(
  ws: Workspace,
  file: string,
  signal: AbortSignal,
): Promise<string | { content: string; isError: boolean }> {
  // Regular files only, bounded in bytes and time: /dev/zero, a FIFO or a socket is refused.
  const r = await ws.readFile(file, { maxBytes: MAX_FILE_BYTES, signal });
  if (!r.ok) {
    if (r.reason === "directory") return error(`${file} is a directory; use search_files to list files.`);
    if (r.reason === "too_big")
      return error(
        `${r.message} of read_file. ` +
          "Use search_files to find the lines you need, or terminal (e.g. sed -n '100,200p').",
      );
    return error(r.message);
  }
  const buf = r.data;
  if (isBinaryContent(buf)) {
    return error(
      `${file} is a binary file (${describeBinary(buf, buf.length)}), not UTF-8 text; read_file shows text only.`,
    );
  }
  return buf.toString("utf8");
}
