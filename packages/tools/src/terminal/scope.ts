// Where a tool call works: its task's `cd` target on the session's workspace, else the session's
// folder. Paths the model gives are resolved there, `~` being the workspace's home.
import { resolvePath } from "../fs/paths.js";
import type { Workspace } from "../workspace/types.js";

interface CallPlace {
  taskId: string;
  cwd: string;
  workspace: Workspace;
}

/** The session's folder on its workspace: its cwd where paths are this machine's, else the workspace's root. */
export function sessionDirOf(ctx: CallPlace): string {
  return ctx.workspace.hostPaths ? ctx.cwd : ctx.workspace.root;
}

/** The directory a tool call works in: its task's `cd` target, else the session's folder. */
export function taskCwdOf(ctx: CallPlace): string {
  return ctx.workspace.cwds.get(ctx.taskId, sessionDirOf(ctx));
}

/** A path the model gave, absolute on the workspace's side. */
export function pathOf(ctx: CallPlace, p: string): string {
  return resolvePath(taskCwdOf(ctx), p, ctx.workspace.home);
}
