// The built `iris` as a user runs it, for the dashboard's end-to-end tests: one-shot runs that
// fill a profile, and long-running commands (dashboard, gateway) whose stderr is watched.
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runIris(args: string[], env: Record<string, string>, cwd: string): Promise<Ran> {
  const child = startIris(args, env, cwd);
  return child.exited.then((code) => ({ code, stdout: child.stdout(), stderr: child.stderr() }));
}

export interface Started {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `re` in stderr (rejects if the process ends first). */
  waitForStderr(re: RegExp): Promise<RegExpExecArray>;
  waitForStdout(re: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

export function startIris(args: string[], env: Record<string, string>, cwd: string): Started {
  const child = spawn(process.execPath, [IRIS_BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin?.end();
  let out = "";
  let err = "";
  const watchers: (() => void)[] = [];
  child.stdout?.on("data", (d) => {
    out += d;
    for (const w of watchers) w();
  });
  child.stderr?.on("data", (d) => {
    err += d;
    for (const w of watchers) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const waitFor = (re: RegExp, text: () => string) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const m = re.exec(text());
        if (m) resolve(m);
      };
      watchers.push(look);
      look();
      exited.then(() => reject(new Error(`iris ${args.join(" ")} ended before ${re}: ${err}`)));
    });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForStderr: (re) => waitFor(re, () => err),
    waitForStdout: (re) => waitFor(re, () => out),
  };
}
