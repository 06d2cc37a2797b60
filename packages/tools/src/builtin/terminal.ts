// The `terminal` tool (SPEC T6) on the local backend: /bin/bash -c in the task's working
// directory, a timeout that kills the whole process group, capped output, and `background`
// for long-running commands handed to the process manager.

import { existsSync } from "node:fs";
import { z } from "zod";
import { defineTool } from "../define.js";
import { commandEnv } from "../terminal/env.js";
import { runForeground } from "../terminal/local-backend.js";
import { sharedTerminalScope, taskCwdOf } from "../terminal/scope.js";

export const DEFAULT_TIMEOUT_S = 180;
export const MAX_TIMEOUT_S = 600;

const parameters = z.object({
  command: z.string().min(1).describe("Bash command line to run."),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(`Seconds before the command is killed (default ${DEFAULT_TIMEOUT_S}, max ${MAX_TIMEOUT_S}).`),
  background: z
    .boolean()
    .optional()
    .describe("Start it in the background and return its process id at once (servers, watchers)."),
});

export default defineTool({
  name: "terminal",
  toolset: "terminal",
  label: "Run",
  effect: "mutate",
  description:
    "Run a shell command (bash) in the working directory and return its output and exit code. " +
    "`cd` persists to later calls. Output is capped (head and tail kept). Non-interactive: no stdin. " +
    "Use background: true for long-running processes, then the process tool.",
  parameters,
  approvalSubject: (args) => args.command,
  approvalCwd: (ctx) => taskCwdOf(ctx),
  async execute(args, ctx) {
    if (ctx.signal.aborted) return "[interrupted before the command started]";
    const scope = ctx.terminal ?? sharedTerminalScope;
    let cwd = scope.cwds.get(ctx.taskId, ctx.cwd);
    let note = "";
    if (cwd !== ctx.cwd && !existsSync(cwd)) {
      // The folder a previous `cd` moved to was deleted: fall back to the session's folder.
      scope.cwds.clear(ctx.taskId);
      note = `[the previous working directory ${cwd} no longer exists; running in ${ctx.cwd}]\n`;
      cwd = ctx.cwd;
    }
    if (!existsSync(cwd)) {
      return { content: `Error: the working directory ${cwd} does not exist.`, isError: true };
    }
    const env = commandEnv();
    if (args.background) {
      const proc = scope.processes.start({ command: args.command, cwd, env, taskId: ctx.taskId });
      return (
        note +
        `Started ${proc.id} (pid ${proc.pid}) in ${cwd}. ` +
        "Use the process tool to poll, wait for, write to or kill it."
      );
    }
    const timeoutS = Math.min(args.timeout ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S);
    const r = await runForeground({
      command: args.command,
      cwd,
      env,
      timeoutMs: Math.round(timeoutS * 1000),
      signal: ctx.signal,
    });
    const lines = note === "" ? [] : [note.trimEnd()];
    lines.push(r.output === "" ? "(no output)" : r.output.replace(/\n$/, ""));
    if (r.timedOut) {
      lines.push(
        `[timed out after ${timeoutS} s; the command and its child processes were killed. ` +
          "Use background: true for long-running commands.]",
      );
    } else if (r.aborted) {
      lines.push("[interrupted; the command and its child processes were killed]");
    } else if (r.exitCode !== null) {
      lines.push(`[exit code: ${r.exitCode}]`);
    } else {
      lines.push(`[killed by ${r.signal ?? "a signal"}]`);
    }
    if (r.finalCwd !== undefined && r.finalCwd !== cwd) {
      scope.cwds.set(ctx.taskId, r.finalCwd);
      lines.push(`[working directory is now ${r.finalCwd}]`);
    }
    return lines.join("\n");
  },
});
