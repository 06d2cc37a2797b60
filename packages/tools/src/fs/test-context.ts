// A real ToolContext for tests: records progress, answers approvals and clarify questions
// from the values given. Not a tool, so it lives outside builtin/.
import type { ApprovalAnswer, ToolContext, ToolProgress } from "../define.js";
import { localWorkspace } from "../workspace/local.js";
import type { Workspace } from "../workspace/types.js";

export interface TestContextOptions {
  cwd: string;
  taskId?: string;
  signal?: AbortSignal;
  approval?: ApprovalAnswer;
  clarify?: (question: string, choices?: string[]) => Promise<string>;
  /** Default: a fresh local workspace rooted at `cwd`. */
  workspace?: Workspace;
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
    workspace: opts.workspace ?? localWorkspace({ root: opts.cwd }),
    progressLog,
    progress: (p) => {
      progressLog.push(p);
    },
    approve: async () => opts.approval ?? "deny",
  };
  if (opts.clarify) ctx.clarify = opts.clarify;
  return ctx;
}
