// Runs the model's regular expression on a worker thread with a hard time limit (issue 13):
// a backtracking pattern such as (a+)+$ can take hours on one line, and on the main thread it
// would freeze the process beyond Ctrl-C. Here the main thread only waits; on a timeout or an
// abort the worker is terminated, which stops even a regex in the middle of a match.
// Why not RE2 (re2-wasm): the tool promises JavaScript regex syntax (lookaround, backreferences),
// which RE2 rejects; a time limit keeps the syntax and still bounds the cost.
import { Worker } from "node:worker_threads";

/** How long one file's matching may take before the pattern is declared too slow. */
export const REGEX_FILE_BUDGET_MS = 1200;

// CommonJS run with `eval`: the CLI is one bundled file, so there is no worker file to point at.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const re = new RegExp(workerData.pattern, workerData.flags);
parentPort.on("message", ({ text, max, cut }) => {
  const lines = text.split("\\n");
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    const line = lines[i].endsWith("\\r") ? lines[i].slice(0, -1) : lines[i];
    if (re.test(line)) hits.push([i + 1, line.length > cut ? line.slice(0, cut) : line]);
  }
  parentPort.postMessage(hits);
});
`;

export class RegexTimeout extends Error {}

export class RegexWorker {
  private readonly worker: Worker;
  private dead = false;

  constructor(
    pattern: string,
    flags: string,
    private readonly budgetMs = REGEX_FILE_BUDGET_MS,
  ) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, flags } });
    this.worker.unref();
  }

  /** Matching lines of `text` as [line number, line] (at most `max`). */
  match(text: string, max: number, cut: number, signal: AbortSignal): Promise<[number, string][]> {
    if (this.dead) return Promise.reject(new Error("the regex worker has stopped"));
    return new Promise((resolve, reject) => {
      const finish = (action: () => void): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.worker.off("message", onMessage);
        this.worker.off("error", onError);
        action();
      };
      const onMessage = (hits: [number, string][]) => finish(() => resolve(hits));
      const onError = (e: Error) => finish(() => reject(e));
      const stop = (why: unknown) =>
        finish(() => {
          this.close();
          reject(why);
        });
      const onAbort = () => stop(signal.reason);
      const timer = setTimeout(
        () => stop(new RegexTimeout(`over ${this.budgetMs} ms on one file`)),
        this.budgetMs,
      );
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.worker.on("message", onMessage);
      this.worker.on("error", onError);
      this.worker.postMessage({ text, max, cut });
    });
  }

  close(): void {
    if (this.dead) return;
    this.dead = true;
    void this.worker.terminate();
  }
}
