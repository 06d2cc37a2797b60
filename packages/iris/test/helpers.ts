// Runs the built `iris` command the way a user does, against a temp home.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

export const MODES = ["chat_completions", "responses", "anthropic_messages"] as const;

export function routeArgs(baseUrl: string, mode: (typeof MODES)[number]): string[] {
  return ["--provider", "custom", "--base-url", baseUrl, "--model", "fake-model", "--api-mode", mode];
}
