// Where the one-shot prompt comes from (SPEC K6): the `-p` argument, then stdin when stdin is not
// a terminal. `-p -` (or `-p` alone) means stdin only. A prompt on stdin has no size limit, unlike
// one in the argument list (about 128 KiB per argument on Linux: "Argument list too long").
import { fstatSync } from "node:fs";

export type PromptSource = { text: string } | { error: string };

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** stdin is worth reading: a pipe, a file or a socket, not a terminal and not /dev/null. */
export function stdinHasInput(stdin: NodeJS.ReadStream & { fd?: number }): boolean {
  if (stdin.isTTY) return false;
  try {
    const st = fstatSync(stdin.fd ?? 0);
    return st.isFIFO() || st.isFile() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * `arg` is the value given to `-p` (true when `-p` had none, undefined without `-p`).
 * With both an argument and piped input, the argument comes first, then a blank line, then stdin.
 */
export async function readPrompt(
  arg: string | true | undefined,
  stdin: NodeJS.ReadStream & { fd?: number },
): Promise<PromptSource> {
  const stdinOnly = arg === true || arg === "-";
  const piped = stdinHasInput(stdin);
  if (stdinOnly && !piped)
    return { error: "iris: -p - reads the prompt from stdin, but stdin is a terminal or empty" };
  const fromStdin = piped ? (await readAll(stdin)).replace(/\s+$/, "") : "";
  const parts = [stdinOnly ? "" : (arg ?? ""), fromStdin].filter((p) => p.trim().length > 0);
  if (!parts.length) return { error: "iris: -p needs a prompt (an argument, or text on stdin)" };
  return { text: parts.join("\n\n") };
}
