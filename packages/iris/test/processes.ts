// The real `iris` bin as long-running processes (workers, servers), for the multi-process tests:
// output kept as it arrives, the exit awaited, and each process SIGKILLed at cleanup if still up.
import { type ChildProcess, spawn } from "node:child_process";
import { IRIS_BIN } from "./helpers.js";

export interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** What a test undoes at its end, in reverse order. */
export type Cleanups = (() => Promise<void> | void)[];

export async function runCleanups(cleanups: Cleanups): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

export function startIris(
  args: string[],
  env: Record<string, string>,
  cleanups: Cleanups,
  opts: { cwd?: string } = {},
): Proc {
  const child = spawn(process.execPath, [IRIS_BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for a condition (never a fixed sleep); the error names what did not happen. */
export async function until(
  test: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
