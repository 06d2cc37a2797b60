// What a file edit changed, shown under its tool line in the chat (SPEC E1): each write_file and
// patch call's file is read when the model has written out the call (tool_gen, before it runs)
// and again when it has run, and the two are shown as a coloured unified diff (jsdiff), cut to a
// screenful. A file that cannot be read here (a remote workspace, a folder) shows no diff.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { structuredPatch } from "diff";
import type { Style } from "./colors.js";
import type { TurnFeed } from "./turn-feed.js";
import { truncateToWidth } from "./width.js";

const EDITORS = new Set(["write_file", "patch"]);
/** Diff lines shown per edit; the rest is counted. */
const MAX_LINES = 24;
/** Files larger than this are not diffed (the diff would not be read anyway). */
const MAX_BYTES = 1_000_000;

interface Pending {
  file: string;
  shown: string;
  before: string | null;
}

function readText(file: string): string | null | undefined {
  try {
    const buf = readFileSync(file);
    if (buf.length > MAX_BYTES || buf.includes(0)) return undefined;
    return buf.toString("utf8");
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

export class EditDiffs {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly cwd: string,
    private readonly style: Style,
  ) {}

  /** Reads each edited file before its call runs. */
  attach(feed: TurnFeed): () => void {
    return feed.on((c) => {
      if (c.kind !== "tool" || c.phase !== "generated") return;
      const { call } = c;
      if (!EDITORS.has(call.name)) return;
      let path: unknown;
      try {
        path = (JSON.parse(call.argumentsJson ?? "") as { path?: unknown }).path;
      } catch {
        return; // refused by the dispatcher: nothing is written
      }
      if (typeof path !== "string" || !path) return;
      const file = resolve(this.cwd, path.replace(/^~(?=\/|$)/, process.env.HOME ?? "~"));
      const before = readText(file);
      if (before !== undefined) this.pending.set(call.callId, { file, shown: path, before });
    });
  }

  /** The diff lines of a finished call (empty when it is no edit, failed, or changed nothing). */
  render(callId: string, failed: boolean, width: number): string[] {
    const p = this.pending.get(callId);
    this.pending.delete(callId);
    if (!p || failed) return [];
    const after = readText(p.file);
    if (typeof after !== "string" || after === p.before) return [];
    const patch = structuredPatch(p.shown, p.shown, p.before ?? "", after, "", "", { context: 2 });
    const { style } = this;
    let added = 0;
    let removed = 0;
    const body: string[] = [];
    for (const h of patch.hunks) {
      // As git writes them: an empty side starts at line 0.
      const from = h.oldLines === 0 ? Math.max(0, h.oldStart - 1) : h.oldStart;
      const to = h.newLines === 0 ? Math.max(0, h.newStart - 1) : h.newStart;
      body.push(style.cyan(`@@ -${from},${h.oldLines} +${to},${h.newLines} @@`));
      for (const line of h.lines) {
        if (line.startsWith("\\")) continue; // "\ No newline at end of file"
        const text = truncateToWidth(line, width - 4);
        if (line.startsWith("+")) {
          added++;
          body.push(style.green(text));
        } else if (line.startsWith("-")) {
          removed++;
          body.push(style.red(text));
        } else body.push(style.dim(text));
      }
    }
    const head = `${p.before === null ? "new file " : ""}${p.shown}  ${style.green(`+${added}`)} ${style.red(`-${removed}`)}`;
    const shown = body.slice(0, MAX_LINES);
    if (body.length > MAX_LINES) shown.push(style.dim(`… ${body.length - MAX_LINES} more diff lines`));
    return [head, ...shown].map((l) => `    ${l}`);
  }
}
