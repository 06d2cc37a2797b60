// Background processes started by `terminal` with background: true, managed by the `process`
// tool. Each runs in its own process group, its output (stdout and stderr interleaved) goes to
// a bounded ring buffer, and every live group is killed when Node exits.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { KILL_GRACE_MS, signalGroup, terminateGroup, trackGroup, untrackGroup } from "./kill-group.js";
import { utf8CompleteLength, utf8FirstCharStart } from "./output-caps.js";
import { RingBuffer } from "./ring-buffer.js";

export const PROCESS_BUFFER_BYTES = 1024 * 1024;
// Finished processes kept for reading after they exit; the oldest are forgotten first.
const MAX_FINISHED_KEPT = 50;
// After the shell exits, how long its pipes may stay open before it counts as exited anyway.
const PIPE_DRAIN_MS = 300;

export interface ManagedProcess {
  id: string;
  pid: number;
  command: string;
  cwd: string;
  taskId: string;
  startedAt: number;
  endedAt?: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  running: boolean;
  /** Set when the process tool asked for the kill. */
  killed: boolean;
  output: RingBuffer;
  /** Absolute output position the last poll reached. */
  pollCursor: number;
  exited: Promise<void>;
  child: ChildProcessWithoutNullStreams;
}

export interface StartOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  taskId: string;
  bufferBytes?: number;
}

export class ProcessManager {
  private procs = new Map<string, ManagedProcess>();
  private nextId = 1;

  start(opts: StartOptions): ManagedProcess {
    const child = spawn("/bin/bash", ["-c", opts.command], {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (child.pid === undefined) {
      // spawn reports the reason asynchronously; the usual one is a missing cwd.
      child.on("error", () => {});
      throw new Error(`could not start the process (cwd ${opts.cwd})`);
    }
    const pid = child.pid;
    trackGroup(pid);
    const output = new RingBuffer(opts.bufferBytes ?? PROCESS_BUFFER_BYTES);
    child.stdout.on("data", (b: Buffer) => output.push(b));
    child.stderr.on("data", (b: Buffer) => output.push(b));
    child.stdin.on("error", () => {}); // EPIPE when the process exits while we write
    const proc: ManagedProcess = {
      id: `proc_${this.nextId++}`,
      pid,
      command: opts.command,
      cwd: opts.cwd,
      taskId: opts.taskId,
      startedAt: Date.now(),
      exitCode: null,
      signal: null,
      running: true,
      killed: false,
      output,
      pollCursor: 0,
      child,
      exited: new Promise((resolve) => {
        // Exit is final once the shell is gone and its pipes closed; a grandchild that keeps the
        // pipes open must not make the process look alive forever, so closing is awaited only briefly.
        child.once("exit", (code, sig) => {
          const settle = () => {
            proc.running = false;
            proc.exitCode = code;
            proc.signal = sig;
            proc.endedAt = Date.now();
            resolve();
          };
          if (child.stdout.closed && child.stderr.closed) settle();
          else {
            const timer = setTimeout(settle, PIPE_DRAIN_MS);
            child.once("close", () => {
              clearTimeout(timer);
              settle();
            });
          }
        });
        // The group stays tracked (killed when Node exits) until every pipe holder is gone.
        child.once("close", () => untrackGroup(pid));
      }),
    };
    this.procs.set(proc.id, proc);
    this.prune();
    return proc;
  }

  get(id: string): ManagedProcess | undefined {
    return this.procs.get(id);
  }

  list(): ManagedProcess[] {
    return [...this.procs.values()];
  }

  /** New output since the previous poll, and moves the cursor to the end. */
  takeNewOutput(proc: ManagedProcess): { text: string; skipped: number } {
    const { from, data } = proc.output.readFrom(proc.pollCursor);
    const skipped = from - proc.pollCursor;
    const start = skipped > 0 ? utf8FirstCharStart(data) : 0;
    // While it runs, stop before a character whose last bytes have not arrived yet.
    const end = Math.max(start, proc.running ? utf8CompleteLength(data) : data.length);
    proc.pollCursor = from + end;
    return { text: data.subarray(start, end).toString("utf8"), skipped: skipped + start };
  }

  /** Everything still buffered, and how many earlier bytes were dropped. */
  buffered(proc: ManagedProcess): { text: string; dropped: number } {
    const { from, data } = proc.output.readFrom(0);
    return { text: decodeFrom(data, from > 0), dropped: from };
  }

  async write(proc: ManagedProcess, data: string): Promise<void> {
    if (!proc.running) throw new Error(`${proc.id} has exited`);
    await new Promise<void>((resolve, reject) => {
      proc.child.stdin.write(data, (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Resolves true when the process exited, false on timeout or abort. */
  async wait(proc: ManagedProcess, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (!proc.running) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      onAbort = () => resolve(false);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([proc.exited.then(() => true as const), stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Kills the process group and waits (bounded) until the process is gone. */
  async kill(proc: ManagedProcess, graceMs = KILL_GRACE_MS): Promise<void> {
    if (!proc.running) {
      signalGroup(proc.pid, "SIGKILL"); // children it left behind, if any
      return;
    }
    proc.killed = true;
    terminateGroup(proc.pid, graceMs);
    await this.wait(proc, graceMs + 1000);
  }

  /** Forgets every process (call after killing the running ones). */
  clear(): void {
    this.procs.clear();
  }

  private prune(): void {
    const finished = this.list().filter((p) => !p.running);
    for (const p of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_KEPT))) {
      this.procs.delete(p.id);
    }
  }
}

// When bytes before `data` were dropped, it may start inside a UTF-8 character.
function decodeFrom(data: Buffer, mayStartMidChar: boolean): string {
  return data.subarray(mayStartMidChar ? utf8FirstCharStart(data) : 0).toString("utf8");
}
