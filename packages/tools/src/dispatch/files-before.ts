// The files an approved call is about to write, read right before it runs (after approval, before
// the receipt gate): the receipt keeps them, so `/rewind` can put each file back as it was.
// Through the call's workspace, as the tool itself reads and writes (a container's files, an
// editor's buffers).
import type { FileAccessCheck } from "../approval/file-access.js";
import type { FileBefore, ToolContext } from "../define.js";

/** A bigger file is not copied (a rewind says so instead of restoring it). */
export const MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024;

export async function filesBefore(
  access: readonly FileAccessCheck[] | undefined,
  ctx: ToolContext,
): Promise<FileBefore[]> {
  const out: FileBefore[] = [];
  for (const a of access ?? []) {
    if (a.kind !== "write") continue;
    const ws = ctx.workspace;
    let path = a.path;
    try {
      path = await ws.realPath(a.path);
      const r = await ws.readFile(path, { maxBytes: MAX_SNAPSHOT_BYTES, signal: ctx.signal });
      if (r.ok) out.push({ path, content: r.data });
      // The editor answers a file it does not have with an error: there, that is "no file" (as patch reads it).
      else if (r.reason === "missing" || (r.reason === "error" && ws.kind === "editor"))
        out.push({ path, content: null });
      else if (r.reason === "too_big")
        out.push({ path, content: null, skipped: `larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MiB` });
      else out.push({ path, content: null, skipped: r.message });
    } catch (err) {
      out.push({ path, content: null, skipped: (err as Error).message });
    }
  }
  return out;
}
