// Runs one foreground command with /bin/bash on this machine. The command gets its own process
// group so a timeout or an abort kills everything it started. Its final working directory is
// captured through an EXIT trap that writes $PWD to a side file, so `cd` can carry over to the
// task's next call without parsing the command.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
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
const CWD_FILE_VAR = "__IRIS_CWD_FILE";

export async function runForeground(opts: ForegroundOptions): Promise<ForegroundResult> {
  const started = Date.now();
  const caps = opts.caps ?? DEFAULT_OUTPUT_CAPS;
  const cwdFile = path.join(tmpdir(), `iris-cwd-${process.pid}-${randomBytes(6).toString("hex")}`);
  const script = `trap 'builtin printf "%s" "$PWD" > "$${CWD_FILE_VAR}"' EXIT\n${opts.command}`;
  const child = spawn("/bin/bash", ["-c", script], {
    cwd: opts.cwd,
    env: { ...opts.env, [CWD_FILE_VAR]: cwdFile },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collector = new HeadTailCollector(caps.maxBytes);
  child.stdout.on("data", (b: Buffer) => collector.push(b));
  child.stderr.on("data", (b: Buffer) => collector.push(b));

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
    const finalCwd = timedOut || aborted ? undefined : await readCwdFile(cwdFile);
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
    await unlink(cwdFile).catch(() => {});
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

async function readCwdFile(file: string): Promise<string | undefined> {
  try {
    const dir = (await readFile(file, "utf8")).trim();
    if (dir === "" || !(await stat(dir)).isDirectory()) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
