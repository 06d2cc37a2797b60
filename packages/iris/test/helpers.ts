// Runs the built `iris` command the way a user does, against a temp home.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";

export const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "iris.js");

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Called once the process is running (e.g. to send signals). */
  onSpawn?: (child: import("node:child_process").ChildProcess) => void;
  stdin?: string;
}

export function runIris(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [IRIS_BIN, ...args], {
      cwd: opts.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
    opts.onSpawn?.(child);
  });
}

export function tempHome(): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), "iris-home-"));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export type TempHome = ReturnType<typeof tempHome>;

/** Sets up a fake LLM server and a temp home (with an empty `work` folder in it when `withWork`); `close` ends both. */
export async function fakeHome(
  withWork = false,
): Promise<{ fake: FakeLlm; home: TempHome; work: string; close: () => Promise<void> }> {
  const fake = await startFakeLlm();
  const home = tempHome();
  const work = join(home.home, "work");
  if (withWork) mkdirSync(work, { recursive: true });
  const close = async () => {
    await fake.close();
    home.cleanup();
  };
  return { fake, home, work, close };
}

export const MODES = ["chat_completions", "responses", "anthropic_messages"] as const;

export function routeArgs(baseUrl: string, mode: (typeof MODES)[number]): string[] {
  return ["--provider", "custom", "--base-url", baseUrl, "--model", "fake-model", "--api-mode", mode];
}
