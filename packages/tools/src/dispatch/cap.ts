// Caps a tool result's size. A tool that pages itself (truncationHint) gets its hint; any other
// result is saved whole to a file whose path the note gives, so nothing is lost.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const DEFAULT_MAX_RESULT_CHARS = 50_000;

export interface CapOptions {
  maxChars: number;
  /** Where oversize results are saved. Default `<tmp>/iris-tool-results`. */
  spillDir?: string;
  toolName: string;
  truncationHint?: string;
}

export async function capResult(content: string, options: CapOptions): Promise<string> {
  const { maxChars } = options;
  if (content.length <= maxChars) return content;
  const head = cutAtCodePoint(content, maxChars);
  const total = content.length;
  if (options.truncationHint) {
    return `${head}\n\n[output truncated at ${maxChars} of ${total} characters; ${options.truncationHint}]`;
  }
  const dir = options.spillDir ?? join(tmpdir(), "iris-tool-results");
  const safeName = options.toolName.replace(/[^A-Za-z0-9_-]/g, "_");
  const file = join(dir, `${safeName}-${Date.now()}-${randomBytes(4).toString("hex")}.txt`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, content, "utf8");
    return `${head}\n\n[output truncated at ${maxChars} of ${total} characters; the full output was saved to ${file}; read it in parts (by line range) or search it]`;
  } catch {
    return `${head}\n\n[output truncated at ${maxChars} of ${total} characters; saving the full output failed — narrow the request to get the rest]`;
  }
}

/** Never splits a surrogate pair. */
function cutAtCodePoint(text: string, max: number): string {
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, max - 1) : text.slice(0, max);
}
