// Runs one foreground command with /bin/bash on this machine. The command gets its own process
// group so a timeout or an abort kills everything it started. Its final working directory comes
// back in-band, as a marker line on its own stdout (workspace/cwd-marker.ts), so `cd` can carry
// over to the task's next call without parsing the command.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { CwdMarkerReader, markCommand } from "../workspace/cwd-marker.js";
import { terminateGroup, trackGroup, untrackGroup } from "./kill-group.js";
import { DEFAULT_OUTPUT_CAPS, HeadTailCollector, type OutputCaps } from "./output-caps.js";

export interface ForegroundOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  caps?: OutputCaps;
  /** Between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** Output as it arrives, the marker removed. */
  onData?: (chunk: string) => void;
}

export interface ForegroundResult {
  /** stdout and stderr interleaved in arrival order, capped. */
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The shell's working directory at exit, when it exited normally. */
  finalCwd?: string;
  durationMs: number;
}

// After the shell exits, wait this long for its pipes to close: a child it left running in the
// background may hold them open forever.
const PIPE_DRAIN_MS = 300;

export async function runForeground(opts: ForegroundOptions): Promise<ForegroundResult> {
  const started = Date.now();
  const caps = opts.caps ?? DEFAULT_OUTPUT_CAPS;
  const { script, nonce } = markCommand(opts.command);
  const child = spawn("/bin/bash", ["-c", script], {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collector = new HeadTailCollector(caps.maxBytes);
  const take = (b: Buffer) => {
    collector.push(b);
    opts.onData?.(b.toString("utf8"));
  };
  const marker = new CwdMarkerReader(nonce, take);
  child.stdout.on("data", (b: Buffer) => marker.push(b));
  child.stderr.on("data", (b: Buffer) => {
    marker.flush();
    take(b);
  });

  let timedOut = false;
  let aborted = false;
  const pid = child.pid;
  if (pid !== undefined) trackGroup(pid);
  const kill = () => {
    if (pid !== undefined) terminateGroup(pid, opts.graceMs);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, opts.timeoutMs);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener("abort", onAbort, { once: true });

  try {
    const { code, sig } = await new Promise<{ code: number | null; sig: NodeJS.Signals | null }>(
      (resolve, reject) => {
        child.once("error", reject);
        child.once("exit", (code, sig) => resolve({ code, sig }));
      },
    );
    await drainPipes(child.stdout, child.stderr);
    marker.end();
    const finalCwd = timedOut || aborted ? undefined : marker.cwd;
    return {
      output: collector.text(caps),
      exitCode: code,
      signal: sig,
      timedOut,
      aborted,
      ...(finalCwd !== undefined ? { finalCwd } : {}),
      durationMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) untrackGroup(pid);
  }
}

function drainPipes(...streams: Readable[]): Promise<void> {
  const pending = streams.filter((s) => !s.closed);
  if (pending.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let open = pending.length;
    const timer = setTimeout(finish, PIPE_DRAIN_MS);
    function finish() {
      clearTimeout(timer);
      for (const s of streams) s.destroy();
      resolve();
    }
    for (const s of pending) {
      s.once("close", () => {
        if (--open === 0) finish();
      });
    }
  });
}
