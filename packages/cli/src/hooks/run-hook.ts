// Runs one user hook command: `sh -c COMMAND` in the working directory, the event as JSON on
// stdin, its output kept (cut at 64 KB), killed with its whole process group at the timeout or
// when the turn is aborted.
import { spawn } from "node:child_process";

export interface HookRun {
  /** The exit code; null when it was killed (timeout, abort) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const MAX_OUTPUT = 64 * 1024;

export function runHook(
  command: string,
  event: unknown,
  opts: { cwd: string; timeoutSeconds: number; signal?: AbortSignal },
): Promise<HookRun> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const child = spawn("sh", ["-c", command], {
      cwd: opts.cwd,
      env: process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutSeconds * 1000);
    opts.signal?.addEventListener("abort", kill, { once: true });
    child.stdout.on("data", (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString("utf8");
    });
    // A hook that does not read its stdin closes the pipe: that is no failure of ours.
    child.stdin.on("error", () => {});
    child.stdin.end(`${JSON.stringify(event)}\n`);
    const done = (code: number | null, error?: Error) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", kill);
      resolve({ code, stdout, stderr: error ? `${stderr}${error.message}` : stderr, timedOut });
    };
    child.on("error", (err) => done(null, err));
    child.on("close", (code) => done(code));
  });
}
