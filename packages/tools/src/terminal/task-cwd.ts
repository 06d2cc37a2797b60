// Working directory per task id (SPEC T6): a `cd` in one task's terminal call moves later calls
// of that task only. The session's cwd (ToolContext.cwd) is the default. Each session's
// workspace keeps its own map; there is no process-wide one.
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
