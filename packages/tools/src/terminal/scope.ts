// What the terminal and process tools keep per session: its background processes and the working
// directory of each of its tasks. A session that closes kills its processes and forgets its
// directories, and `process list` sees only the processes of the session that asks (ARCHITECTURE.md
// "Process scope and session scope"). A call without a scope uses the module-level one.
import { ProcessManager, processManager } from "./process-manager.js";
import { sharedTaskCwds, TaskCwds } from "./task-cwd.js";

export interface TerminalScope {
  processes: ProcessManager;
  cwds: TaskCwds;
  /** Other per-session things closed with the scope (the session's browser context). Added. */
  cleanups?: Set<() => Promise<void>>;
}

export function newTerminalScope(): TerminalScope {
  return { processes: new ProcessManager(), cwds: new TaskCwds() };
}

/** The scope of calls that carry none (a tool run outside any session). */
export const sharedTerminalScope: TerminalScope = { processes: processManager, cwds: sharedTaskCwds() };

/** Kills every process of the scope that still runs and forgets its working directories. */
export async function closeTerminalScope(scope: TerminalScope): Promise<void> {
  const cleanups = [...(scope.cleanups ?? [])];
  scope.cleanups?.clear();
  await Promise.all([
    ...scope.processes.list().map((p) => scope.processes.kill(p)),
    ...cleanups.map((c) => c().catch(() => undefined)),
  ]);
  scope.processes.clear();
  scope.cwds.clearAll();
}

/** The directory a tool call works in: its task's `cd` target, else the session's folder. */
export function taskCwdOf(ctx: { taskId: string; cwd: string; terminal?: TerminalScope }): string {
  return (ctx.terminal ?? sharedTerminalScope).cwds.get(ctx.taskId, ctx.cwd);
}
