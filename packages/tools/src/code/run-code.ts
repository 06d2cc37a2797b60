// One execute_code run: the model's program and the channel's stub written to a folder of their
// own, the tool channel listening on a socket there, the program run in the sandbox the session's
// workspace has (bubblewrap on the local one, the container itself on docker), and the run's
// limits (time, output, tool calls) each reported with a message of its own.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HeadTailCollector } from "../terminal/output-caps.js";
import type { Workspace } from "../workspace/types.js";
import { BWRAP, bwrapArgs, bwrapUsable, interpreterOf } from "./bwrap.js";
import { ToolChannel } from "./rpc-server.js";
import { JS_STUB, PYTHON_STUB } from "./stubs.js";

export type CodeLanguage = "python" | "javascript";

export interface CodeRun {
  language: CodeLanguage;
  code: string;
  /** Where it starts (the task's cwd on the workspace's side). */
  cwd: string;
  workspace: Workspace;
  timeoutMs: number;
  maxOutputBytes: number;
  maxToolCalls: number;
  allowedTools: ReadonlySet<string>;
  signal: AbortSignal;
  callTool(name: string, argumentsJson: string): Promise<{ content: string; isError: boolean }>;
}

export interface CodeResult {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  outputCut: boolean;
  toolCalls: number;
  toolLimitHit: boolean;
  durationMs: number;
}

const FILES = {
  python: { stub: "stub.py", program: "program.py", text: PYTHON_STUB },
  javascript: { stub: "stub.mjs", program: "program.mjs", text: JS_STUB },
} as const;

/** Why execute_code cannot run on this workspace, or undefined when it can. */
export function unsupportedOn(ws: Workspace): string | undefined {
  if (ws.kind === "docker") return undefined;
  if (ws.kind === "local" || ws.kind === "editor") {
    const ok = bwrapUsable();
    return ok === true ? undefined : ok;
  }
  return `execute_code runs on the local and docker workspaces, not on ${ws.kind}`;
}

export async function runCode(r: CodeRun): Promise<CodeResult> {
  const started = Date.now();
  const files = FILES[r.language];
  const inContainer = r.workspace.kind === "docker";
  // A container sees the work folder through its bind mount; the local sandbox gets its own folder.
  const dir = inContainer
    ? path.join(r.workspace.root, `.iris-code-${randomBytes(6).toString("hex")}`)
    : mkdtempSync(path.join(tmpdir(), "iris-code-"));
  mkdirSync(dir, { recursive: true });
  const channel = new ToolChannel({
    socketPath: path.join(dir, "rpc.sock"),
    allowed: r.allowedTools,
    maxCalls: r.maxToolCalls,
    call: r.callTool,
  });
  try {
    writeFileSync(path.join(dir, files.stub), files.text);
    writeFileSync(path.join(dir, files.program), r.code);
    await channel.listen();
    const run = inContainer ? await inWorkspace(r, dir, files) : await inBwrap(r, dir, files);
    return {
      ...run,
      toolCalls: channel.calls,
      toolLimitHit: channel.limitHit,
      durationMs: Date.now() - started,
    };
  } finally {
    await channel.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

type Run = Pick<CodeResult, "output" | "exitCode" | "timedOut" | "aborted" | "outputCut">;
type Files = (typeof FILES)[CodeLanguage];

async function inWorkspace(r: CodeRun, dir: string, f: Files): Promise<Run> {
  const bin = r.language === "python" ? "python3" : "node";
  const res = await r.workspace.exec({
    command: `exec ${bin} ${dir}/${f.stub} ${dir}/${f.program}`,
    cwd: r.cwd,
    env: { IRIS_RPC: `${dir}/rpc.sock` },
    timeoutMs: r.timeoutMs,
    signal: r.signal,
    caps: { maxBytes: r.maxOutputBytes, maxLines: 1_000_000, maxLineLength: 1_000_000 },
  });
  return {
    output: res.output,
    exitCode: res.exitCode,
    timedOut: res.timedOut,
    aborted: res.aborted,
    outputCut: Buffer.byteLength(res.output) >= r.maxOutputBytes,
  };
}

function inBwrap(r: CodeRun, dir: string, f: Files): Promise<Run> {
  const { bin, extraRo } = interpreterOf(r.language);
  const args = bwrapArgs({
    workdir: r.workspace.root,
    cwd: r.cwd,
    channelDir: dir,
    extraRo,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: "/tmp",
      LANG: "C.UTF-8",
      IRIS_RPC: "/run/iris/rpc.sock",
      PYTHONDONTWRITEBYTECODE: "1",
    },
  });
  const child = spawn(BWRAP, [...args, bin, `/run/iris/${f.stub}`, `/run/iris/${f.program}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collector = new HeadTailCollector(r.maxOutputBytes);
  child.stdout.on("data", (b: Buffer) => collector.push(b));
  child.stderr.on("data", (b: Buffer) => collector.push(b));
  let timedOut = false;
  let aborted = false;
  // bwrap's sandbox dies with it (--die-with-parent on its pid 1), so one kill ends everything.
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, r.timeoutMs);
  const onAbort = () => {
    aborted = true;
    child.kill("SIGKILL");
  };
  r.signal.addEventListener("abort", onAbort, { once: true });
  return new Promise((resolve, reject) => {
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      r.signal.removeEventListener("abort", onAbort);
      resolve({
        output: collector.text({ maxLines: 1_000_000, maxLineLength: 1_000_000 }),
        exitCode: code,
        timedOut,
        aborted,
        outputCut: collector.total > r.maxOutputBytes,
      });
    });
  });
}
