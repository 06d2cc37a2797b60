// Working directory per task id (SPEC T6): a `cd` in one task's terminal call moves later calls
// of that task only. The session's cwd (ToolContext.cwd) is the default.
const taskCwds = new Map<string, string>();

export function getTaskCwd(taskId: string, fallback: string): string {
  return taskCwds.get(taskId) ?? fallback;
}

export function setTaskCwd(taskId: string, cwd: string): void {
  taskCwds.set(taskId, cwd);
}

/** Forget a finished task's directory (the agent calls this when a task ends). */
export function clearTaskCwd(taskId: string): void {
  taskCwds.delete(taskId);
}
