// The editor workspace (ACP): commands, processes and the rest of the files stay on the base
// workspace, but text files are read and written through the editor's file methods, so unsaved
// buffers are read and an edit lands in the editor (it shows the change and can undo it).
import type { FileAccess } from "../define.js";
import type { BoundedRead } from "../fs/bounded-read.js";
import type { ReadOptions, Workspace } from "./types.js";

export function editorWorkspace(base: Workspace, files: FileAccess): Workspace {
  const readFile = async (path: string, o: ReadOptions): Promise<BoundedRead> => {
    try {
      const data = Buffer.from(await files.readText(path), "utf8");
      if (data.length > o.maxBytes)
        return {
          ok: false,
          reason: "too_big",
          message: `${path} is ${data.length} bytes, over the ${o.maxBytes}-byte limit`,
        };
      return { ok: true, data };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, reason: "error", message: `could not read ${path} through the editor: ${why}` };
    }
  };
  const writeFile = async (path: string, text: string): Promise<number> => {
    await files.writeText(path, text);
    return Buffer.byteLength(text, "utf8");
  };
  // The base's own methods and state (cwds, processes) stay shared: only the two file calls differ.
  return Object.create(base, {
    kind: { value: "editor" },
    description: { value: `editor (files through the editor; commands on ${base.description})` },
    readFile: { value: readFile },
    writeFile: { value: writeFile },
  }) as Workspace;
}
