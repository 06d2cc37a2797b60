// The `patch` tool: exact find-and-replace in one file. Missing text gets the closest region
// shown; ambiguous text gets the match lines, so the model can add context or use replace_all.
import { z } from "zod";
import { defineTool } from "../define.js";
import { looksBinary } from "../fs/binary.js";
import { findClosestRegion } from "../fs/closest-match.js";
import { cutLine, numberLine, splitLines } from "../fs/text.js";
import { pathOf } from "../terminal/scope.js";
import { MAX_FILE_BYTES } from "./read_file.js";

const parameters = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the working directory."),
  old_string: z.string().min(1).describe("Exact text to replace, including whitespace and indentation."),
  new_string: z.string().describe("Replacement text."),
  replace_all: z.boolean().optional().describe("Replace every occurrence (default: it must be unique)."),
});

function error(message: string) {
  return { content: `Error: ${message}`, isError: true };
}

/** Start offsets of every (non-overlapping) occurrence. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

export default defineTool({
  name: "patch",
  toolset: "file",
  label: "Patch",
  effect: "mutate",
  approvalAccess: (args, ctx) => [{ kind: "write", path: pathOf(ctx, args.path) }],
  description:
    "Replace exact text in a file. old_string must match exactly (whitespace included) and be unique " +
    "unless replace_all is true. On a miss the closest region is shown with line numbers.",
  parameters,
  async execute(args, ctx) {
    const ws = ctx.workspace;
    // The real path was judged by the approval check; the edit lands there.
    const file = await ws.realPath(pathOf(ctx, args.path));
    const r = await ws.readFile(file, { maxBytes: MAX_FILE_BYTES, signal: ctx.signal });
    if (!r.ok && r.reason !== "missing" && ws.kind !== "editor") return error(r.message);
    // The editor rejects a file it does not have: the same "not found" as on disk.
    const buf = r.ok ? r.data : undefined;
    if (!buf) return error(`file not found: ${file}. Use write_file to create it.`);
    if (looksBinary(buf)) return error(`${file} looks like a binary file; patch edits text only.`);
    if (args.old_string === args.new_string) return error("old_string and new_string are identical.");
    const text = buf.toString("utf8");
    let oldS = args.old_string;
    let newS = args.new_string;
    let hits = occurrences(text, oldS);
    // A file with CRLF line ends still matches text the model wrote with plain \n.
    if (hits.length === 0 && text.includes("\r\n") && !oldS.includes("\r")) {
      oldS = oldS.replace(/\n/g, "\r\n");
      newS = newS.replace(/\r?\n/g, "\r\n");
      hits = occurrences(text, oldS);
    }
    if (hits.length === 0) {
      if (splitLines(args.old_string).every((l) => /^\s*\d+\|/.test(l))) {
        return error(
          "old_string was not found; it starts with read_file's line-number prefixes (`  12|`). " +
            "Remove them and retry with the file's text only.",
        );
      }
      const region = findClosestRegion(text, args.old_string);
      if (!region || region.score === 0) return error(`old_string was not found in ${file}.`);
      const shown = region.lines.map((l, i) => numberLine(region.startLine + i, cutLine(l, 500)));
      return error(
        `old_string was not found in ${file}. The closest region (lines ${region.startLine}-` +
          `${region.startLine + region.lines.length - 1}, ${Math.round(region.score * 100)}% similar) is:\n` +
          `${shown.join("\n")}\nCopy the text exactly (without the line-number prefix) and retry.`,
      );
    }
    if (hits.length > 1 && !args.replace_all) {
      const lines = hits.slice(0, 20).map((i) => lineAt(text, i));
      return error(
        `old_string occurs ${hits.length} times in ${file} (lines ${lines.join(", ")}` +
          `${hits.length > 20 ? ", …" : ""}). Include more surrounding context to make it unique, ` +
          "or set replace_all: true.",
      );
    }
    const updated = args.replace_all ? text.split(oldS).join(newS) : text.replace(oldS, () => newS);
    await ws.writeFile(file, updated, ctx.signal);
    const first = lineAt(text, hits[0] as number);
    return `Replaced ${hits.length} occurrence${hits.length === 1 ? "" : "s"} in ${file} (first at line ${first}).`;
  },
});
