// The `search_files` tool: regex search in file contents, or file-name search by glob. A plain
// node walk (no ripgrep needed) that skips .git, node_modules, build folders, what .gitignore
// ignores, and binary files. The model's regex runs on a worker with a time limit (ReDoS).
import path from "node:path";
import { z } from "zod";
import { isCredentialPath } from "../approval/paths.js";
import { defineTool } from "../define.js";
import { looksBinary } from "../fs/binary.js";
import { compileGlob } from "../fs/glob.js";
import { RegexTimeout, RegexWorker } from "../fs/regex-worker.js";
import { cutLine } from "../fs/text.js";
import { pathOf, taskCwdOf } from "../terminal/scope.js";
import type { Workspace } from "../workspace/types.js";

export const DEFAULT_MAX_RESULTS = 100;
export const MAX_RESULTS = 1000;
/** Walks stop after this many files so a search of `/` still ends. */
export const MAX_FILES_SCANNED = 50_000;
/** Content search skips larger files. */
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;
export const MATCH_LINE_CHARS = 300;

const parameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      "content mode: JavaScript regular expression; files mode: glob such as *.ts or src/**/*.test.ts.",
    ),
  mode: z
    .enum(["content", "files"])
    .optional()
    .describe("content: search inside files (default); files: find files by name."),
  path: z.string().optional().describe("Folder or file to search (default: the working directory)."),
  glob: z.string().optional().describe("content mode: only search files matching this glob, e.g. *.py."),
  ignore_case: z.boolean().optional().describe("Case-insensitive match."),
  max_results: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum results (default ${DEFAULT_MAX_RESULTS}, max ${MAX_RESULTS}).`),
});

function error(message: string) {
  return { content: `Error: ${message}`, isError: true };
}

export default defineTool({
  name: "search_files",
  toolset: "file",
  label: "Search",
  effect: "read",
  parallelSafe: true,
  description:
    "Search file contents by regex (`path:line: text` results) or find files by glob name " +
    "(mode: files). Skips .git, node_modules, build folders, .gitignore'd and binary files; results are capped.",
  parameters,
  // Judged on the real path: a search that reaches credentials, or outside the work folder, asks.
  approvalAccess: (args, ctx) => [{ kind: "search", path: pathOf(ctx, args.path ?? ".") }],
  async execute(args, ctx) {
    const ws = ctx.workspace;
    const cwd = taskCwdOf(ctx);
    const root = pathOf(ctx, args.path ?? ".");
    const rootStat = await ws.stat(root);
    if (!rootStat) return error(`path not found: ${root}`);
    const maxResults = Math.min(args.max_results ?? DEFAULT_MAX_RESULTS, MAX_RESULTS);
    const show = (file: string) => {
      const rel = path.posix.relative(cwd, file);
      return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
    };
    const realRoot = await ws.realPath(root);
    const isDir = rootStat.type === "directory";
    const files = isDir ? ws.walk(root, { signal: ctx.signal, maxFiles: MAX_FILES_SCANNED }) : single(root);
    const relToRoot = (file: string) => (isDir ? path.posix.relative(root, file) : path.posix.basename(file));

    const results: string[] = [];
    let capped = false;
    let scanned = 0;

    if (args.mode === "files") {
      const matches = compileGlob(args.pattern);
      for await (const file of files) {
        scanned++;
        if (!matches(relToRoot(file))) continue;
        if (results.length >= maxResults) {
          capped = true;
          break;
        }
        results.push(show(file));
      }
    } else {
      let re: RegExp;
      try {
        re = new RegExp(args.pattern, args.ignore_case ? "i" : "");
      } catch (err) {
        return error(`invalid regular expression ${JSON.stringify(args.pattern)}: ${(err as Error).message}`);
      }
      const filter = args.glob ? compileGlob(args.glob) : undefined;
      // The regex runs on a worker with a time limit: a backtracking pattern cannot freeze us.
      const worker = new RegexWorker(re.source, re.flags);
      try {
        for await (const file of files) {
          scanned++;
          if (filter && !filter(relToRoot(file))) continue;
          const buf = await readSmallFile(ws, file, realRoot, file === root);
          if (!buf || looksBinary(buf)) continue;
          const hits = await worker.match(
            buf.toString("utf8"),
            maxResults + 1 - results.length,
            4 * MATCH_LINE_CHARS,
            ctx.signal,
          );
          for (const [n, line] of hits) {
            if (results.length >= maxResults) {
              capped = true;
              break;
            }
            results.push(`${show(file)}:${n}: ${cutLine(line, MATCH_LINE_CHARS)}`);
          }
          if (capped) break;
        }
      } catch (err) {
        if (err instanceof RegexTimeout)
          return error(
            `the regular expression ${JSON.stringify(args.pattern)} is too slow (${err.message}; ` +
              "nested repetition such as (a+)+ backtracks catastrophically). Simplify it.",
          );
        throw err;
      } finally {
        worker.close();
      }
    }

    const what = args.mode === "files" ? "files" : "matches";
    if (results.length === 0) return `No ${what} found for ${JSON.stringify(args.pattern)} in ${root}.`;
    if (capped) {
      results.push(
        `[results capped at ${maxResults} ${what}; narrow the pattern, path or glob, or raise max_results]`,
      );
    } else if (scanned >= MAX_FILES_SCANNED) {
      results.push(`[stopped after scanning ${MAX_FILES_SCANNED} files; narrow the path]`);
    }
    return results.join("\n");
  },
});

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

/**
 * A file's bytes for a content search, or undefined to skip it: regular files only (no FIFO
 * waits, no /dev/zero), not a symlink leading out of the searched folder, not a credential file
 * (.env, keys) found by walking — named as the search path itself, the approval check asked.
 */
async function readSmallFile(
  ws: Workspace,
  file: string,
  realRoot: string,
  named: boolean,
): Promise<Buffer | undefined> {
  const real = await ws.realPath(file);
  if (!named && (isCredentialPath(real) || isCredentialPath(file))) return undefined;
  if (!named && real !== realRoot && !real.startsWith(`${realRoot}/`)) return undefined;
  const r = await ws.readFile(real, { maxBytes: MAX_SEARCH_FILE_BYTES, timeoutMs: 5_000 });
  return r.ok ? r.data : undefined;
}
