// The `terminal` tool (SPEC T6) on the session's workspace: bash in the task's working
// directory, a timeout that kills the whole process group, capped output, the directory a `cd`
// left carried to the task's next call, and `background` for long-running commands.
import { z } from "zod";
import { defineTool } from "../define.js";
import { sessionDirOf, taskCwdOf } from "../terminal/scope.js";

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
    const ws = ctx.workspace;
    const home = sessionDirOf(ctx);
    let cwd = ws.cwds.get(ctx.taskId, home);
    let note = "";
    const isDir = async (dir: string) => (await ws.stat(dir))?.type === "directory";
    if (cwd !== home && !(await isDir(cwd))) {
      // The folder a previous `cd` moved to was deleted: fall back to the session's folder.
      ws.cwds.clear(ctx.taskId);
      note = `[the previous working directory ${cwd} no longer exists; running in ${home}]\n`;
      cwd = home;
    }
    if (!(await isDir(cwd))) {
      return { content: `Error: the working directory ${cwd} does not exist.`, isError: true };
    }
    if (args.background) {
      const proc = await ws.processes.start({ command: args.command, cwd, taskId: ctx.taskId });
      return (
        note +
        `Started ${proc.id} (pid ${proc.pid}) in ${cwd}. ` +
        "Use the process tool to poll, wait for, write to or kill it."
      );
    }
    const timeoutS = Math.min(args.timeout ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S);
    const r = await ws.exec({
      command: args.command,
      cwd,
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
      ws.cwds.set(ctx.taskId, r.finalCwd);
      lines.push(`[working directory is now ${r.finalCwd}]`);
    }
    return lines.join("\n");
  },
});
