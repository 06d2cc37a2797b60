// A real ToolContext for tests: records progress, answers approvals and clarify questions
// from the values given. Not a tool, so it lives outside builtin/.
import type { ApprovalAnswer, ToolContext, ToolProgress } from "../define.js";

export interface TestContextOptions {
  cwd: string;
  taskId?: string;
  signal?: AbortSignal;
  approval?: ApprovalAnswer;
  clarify?: (question: string, choices?: string[]) => Promise<string>;
}

export interface TestContext extends ToolContext {
  progressLog: ToolProgress[];
}

let counter = 0;

export function makeTestContext(opts: TestContextOptions): TestContext {
  const progressLog: ToolProgress[] = [];
  const ctx: TestContext = {
    signal: opts.signal ?? new AbortController().signal,
    taskId: opts.taskId ?? `test-task-${process.pid}-${++counter}`,
    cwd: opts.cwd,
    progressLog,
    progress: (p) => {
      progressLog.push(p);
    },
    approve: async () => opts.approval ?? "deny",
  };
  if (opts.clarify) ctx.clarify = opts.clarify;
  return ctx;
}
