// Working directory per task id (SPEC T6): a `cd` in one task's terminal call moves later calls
// of that task only. The session's cwd (ToolContext.cwd) is the default. Each session keeps its
// own map (TerminalScope); the module-level one serves callers that have no session.
export class TaskCwds {
  private readonly byTask = new Map<string, string>();

  get(taskId: string, fallback: string): string {
    return this.byTask.get(taskId) ?? fallback;
  }

  set(taskId: string, cwd: string): void {
    this.byTask.set(taskId, cwd);
  }

  /** Forget a finished task's directory. */
  clear(taskId: string): void {
    this.byTask.delete(taskId);
  }

  clearAll(): void {
    this.byTask.clear();
  }

  get size(): number {
    return this.byTask.size;
  }
}

const shared = new TaskCwds();

export function getTaskCwd(taskId: string, fallback: string, cwds: TaskCwds = shared): string {
  return cwds.get(taskId, fallback);
}

export function setTaskCwd(taskId: string, cwd: string, cwds: TaskCwds = shared): void {
  cwds.set(taskId, cwd);
}

/** Forget a finished task's directory (the agent calls this when a task ends). */
export function clearTaskCwd(taskId: string, cwds: TaskCwds = shared): void {
  cwds.clear(taskId);
}

/** The map used when a tool call carries no session scope. */
export function sharedTaskCwds(): TaskCwds {
  return shared;
}
