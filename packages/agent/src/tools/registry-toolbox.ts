// The ToolBox port over @iris/tools: the menu chosen for this platform, the dispatcher, the
// approval policy, and the front end's approve/clarify wired into each call's context.
import type { ToolCallPart, ToolSpec } from "@iris/llm";
import {
  type ApprovalMemory,
  type ApprovalPolicy,
  type ApprovalRequest,
  type DispatchOptions,
  dispatchToolCall,
  editorWorkspace,
  localWorkspace,
  type Menu,
  type SkillLibrary,
  type ToolContext,
  type ToolRegistry,
  type Workspace,
} from "@iris/tools";
import type { AgentEvents } from "../events.js";
import type { FrontEnd, ToolBox, ToolRunContext, ToolTraits } from "../ports.js";
import { withdrawOnAbort } from "./withdraw.js";

export interface RegistryToolBoxOptions {
  registry: ToolRegistry;
  menu: Menu;
  policy: ApprovalPolicy;
  frontEnd: FrontEnd;
  events: AgentEvents;
  dispatch?: DispatchOptions;
  /**
   * The session's workspace: where commands run and files live, with its background processes
   * and per-task directories. Default: a local one of this tool box's own, rooted at the call's cwd.
   */
  workspace?: Workspace;
  /** The session's skills, for skills_list / skill_view / skill_manage. */
  skills?: SkillLibrary;
  /** The session's "approved for this session" memory (owned by the session, not the process). */
  approvalMemory?: ApprovalMemory;
}

type ToolBoxResult = Awaited<ReturnType<ToolBox["run"]>>;

export class RegistryToolBox implements ToolBox {
  private readonly traitsByName = new Map<string, ToolTraits>();
  private ownWorkspace: Workspace | undefined;

  constructor(private readonly opts: RegistryToolBoxOptions) {
    for (const t of opts.menu.tools)
      this.traitsByName.set(t.name, {
        effect: t.effect,
        parallelSafe: t.parallelSafe === true,
        interactive: t.interactive === true,
      });
  }

  specs(): ToolSpec[] {
    return this.opts.menu.specs;
  }

  traits(name: string): ToolTraits | undefined {
    return this.traitsByName.get(name);
  }

  async run(call: ToolCallPart, ctx: ToolRunContext): Promise<ToolBoxResult> {
    // Only offered tools run: a name the model invents is unknown even if the registry has it.
    if (!this.traitsByName.has(call.name))
      return {
        content: JSON.stringify({ error: `unknown tool '${call.name}'; call only the tools you were given` }),
        isError: true,
      };
    const { frontEnd } = this.opts;
    const blocked = await frontEnd.beforeTool?.(call, ctx.signal);
    const result =
      blocked !== undefined
        ? { content: JSON.stringify({ error: `blocked by a hook: ${blocked}` }), isError: true }
        : await this.runOffered(call, ctx);
    // The user's post_tool_use hooks: awaited, so the model's next request waits for them.
    await frontEnd.afterTool?.(call, result, ctx.signal);
    return result;
  }

  private async runOffered(call: ToolCallPart, ctx: ToolRunContext): Promise<ToolBoxResult> {
    const { frontEnd, events } = this.opts;
    if (!this.opts.workspace && !this.ownWorkspace) this.ownWorkspace = localWorkspace({ root: ctx.cwd });
    const base = this.opts.workspace ?? (this.ownWorkspace as Workspace);
    // An editor that owns the files (ACP) reads and writes them; commands stay on the base.
    const workspace = frontEnd.files ? editorWorkspace(base, frontEnd.files) : base;
    const toolCtx: ToolContext = {
      signal: ctx.signal,
      taskId: ctx.taskId,
      sessionId: ctx.sessionId,
      cwd: ctx.cwd,
      workspace,
      ...(this.opts.skills ? { skills: this.opts.skills } : {}),
      progress: (p) => ctx.progress(p.message),
      interactive: frontEnd.approve !== undefined,
      ...(this.opts.approvalMemory ? { approvalMemory: this.opts.approvalMemory } : {}),
      approve: async (asked: ApprovalRequest, signal?: AbortSignal) => {
        // The call it is about: parallel calls of one tool are asked about and answered apart.
        const request: ApprovalRequest = { ...asked, callId: call.callId };
        events.emit("tool_approval_requested", {
          tool: request.tool,
          command: request.command,
          reason: request.reason,
        });
        // Withdrawn when the tool's own question times out or when the turn ends.
        const withdraw = signal ? AbortSignal.any([signal, ctx.signal]) : ctx.signal;
        const answer = frontEnd.approve
          ? await withdrawOnAbort(frontEnd.approve(request, withdraw), withdraw, "deny" as const)
          : "deny";
        if (answer === "deny" || answer === "deny_session")
          events.emit("tool_approval_denied", {
            tool: request.tool,
            command: request.command,
            reason: request.reason,
          });
        else
          events.emit("tool_approval_granted", {
            tool: request.tool,
            command: request.command,
            scope: answer,
          });
        return answer;
      },
      ...(frontEnd.clarify
        ? {
            clarify: (question: string, choices?: string[]) =>
              withdrawOnAbort(frontEnd.clarify!(question, choices, ctx.signal, call.callId), ctx.signal, ""),
          }
        : {}),
      ...(ctx.beforeRun ? { beforeExecute: ctx.beforeRun } : {}),
      ...(ctx.recordModelCall ? { recordModelCall: ctx.recordModelCall } : {}),
    };
    // Inner calls (execute_code): offered tools only, asked about like direct ones; each one that
    // is not a read gets a receipt of its own under the outer call's (ctx.innerReceipt).
    const { beforeExecute: _outer, ...inner } = toolCtx;
    toolCtx.callTool = async (name, argumentsJson) => {
      const traits = this.traitsByName.get(name);
      if (!traits) return { content: `tool '${name}' is not offered in this session`, isError: true };
      const receipt = traits.effect !== "read" ? ctx.innerReceipt?.(name, argumentsJson) : undefined;
      const dispatch = (c: ToolContext) =>
        dispatchToolCall(
          this.opts.registry,
          { name, argumentsJson },
          c,
          this.opts.policy,
          this.opts.dispatch,
        );
      if (!receipt) return dispatch(inner);
      try {
        const result = await dispatch({ ...inner, beforeExecute: receipt.beforeRun });
        receipt.settle(result);
        return result;
      } catch (err) {
        receipt.fail(err);
        throw err;
      }
    };
    return dispatchToolCall(
      this.opts.registry,
      { name: call.name, argumentsJson: call.argumentsJson },
      toolCtx,
      this.opts.policy,
      this.opts.dispatch,
    );
  }
}
