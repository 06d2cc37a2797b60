// Questions answered line by line, on a terminal or from piped input (answers typed ahead are
// kept, unlike readline's question(), which drops lines that arrive before it is asked). A
// hidden question (an API key) echoes nothing on a terminal.
import { createInterface } from "node:readline";

export interface LineReader {
  ask(question: string, opts?: { hidden?: boolean }): Promise<string | undefined>;
  close(): void;
}

export function lineReader(input: NodeJS.ReadStream, output: NodeJS.WriteStream): LineReader {
  const rl = createInterface({ input, output, terminal: input.isTTY === true });
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let closed = false;
  let muted = false;
  // readline writes the echo of typed characters through this method; muted, it writes nothing.
  const rlOut = rl as unknown as { _writeToOutput(s: string): void };
  const write = rlOut._writeToOutput.bind(rl);
  rlOut._writeToOutput = (s: string) => {
    if (!muted) write(s);
  };
  rl.on("line", (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  rl.on("close", () => {
    closed = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  return {
    ask(question, opts = {}) {
      output.write(question);
      const next = lines.shift();
      if (next !== undefined) return Promise.resolve(next);
      if (closed) return Promise.resolve(undefined);
      muted = opts.hidden === true && input.isTTY === true;
      return new Promise((resolve) =>
        waiting.push((line) => {
          if (muted) output.write("\n");
          muted = false;
          resolve(line);
        }),
      );
    },
    close: () => rl.close(),
  };
}
