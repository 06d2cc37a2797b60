// The user's hooks (config.yaml `hooks:`, SPEC E1) around the CLI's turns, in the chat and in
// `iris -p`: pre_tool_use before each call runs (exit 2 blocks it: the model is told the hook's
// stderr), post_tool_use after it with its result (the result goes to the model when they have
// finished), turn_end when a turn has ended. A hook that fails otherwise (another exit code, a
// timeout) is reported and changes nothing.
import type { IrisConfig, TurnHooks } from "@iris/host";
import type { ToolCallPart } from "@iris/llm";
import { runHook } from "./run-hook.js";

type ToolHook = IrisConfig["hooks"]["pre_tool_use"][number];

export interface UserHooksContext {
  sessionId: () => string;
  cwd: string;
  /** Where a failed hook is reported (the chat's status line, stderr in `iris -p`). */
  warn: (message: string) => void;
}

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

const firstLine = (s: string) => s.trim().split("\n")[0]?.slice(0, 300) ?? "";

export class UserHooks {
  private readonly pre: { hook: ToolHook; matches: RegExp }[];
  private readonly post: { hook: ToolHook; matches: RegExp }[];

  constructor(
    private readonly config: IrisConfig["hooks"],
    private readonly ctx: UserHooksContext,
  ) {
    const compile = (hooks: ToolHook[]) =>
      hooks.map((hook) => ({ hook, matches: new RegExp(`^(?:${hook.matcher ?? ".*"})$`) }));
    this.pre = compile(config.pre_tool_use);
    this.post = compile(config.post_tool_use);
  }

  /** The turn's hooks: pre_tool_use before every call and post_tool_use after it. */
  around(frontEnd: TurnHooks = {}): TurnHooks {
    const wrapped: TurnHooks = { ...frontEnd };
    if (this.pre.length) wrapped.beforeTool = (call, signal) => this.beforeTool(call, signal);
    if (this.post.length) wrapped.afterTool = (call, result, signal) => this.afterTool(call, result, signal);
    return wrapped;
  }

  private async beforeTool(call: ToolCallPart, signal: AbortSignal): Promise<string | undefined> {
    for (const { hook, matches } of this.pre) {
      if (!matches.test(call.name)) continue;
      const event = this.callEvent("pre_tool_use", call);
      const r = await runHook(hook.command, event, this.options(hook, signal));
      if (r.code === 2) return firstLine(r.stderr) || `the pre_tool_use hook '${hook.command}' refused it`;
      if (r.code !== 0) this.failed("pre_tool_use", hook.command, r);
    }
    return undefined;
  }

  /** In order, each to its end (or its timeout): the model's next request waits for them. */
  private async afterTool(
    call: ToolCallPart,
    result: { content: string; isError: boolean },
    signal: AbortSignal,
  ): Promise<void> {
    const event = {
      ...this.callEvent("post_tool_use", call),
      tool_result: result.content,
      is_error: result.isError,
    };
    for (const { hook, matches } of this.post)
      if (matches.test(call.name)) await this.runReported("post_tool_use", hook, event, signal);
  }

  private callEvent(name: string, call: ToolCallPart) {
    return {
      hook_event_name: name,
      session_id: this.ctx.sessionId(),
      cwd: this.ctx.cwd,
      tool_name: call.name,
      tool_call_id: call.callId,
      tool_input: parseArgs(call.argumentsJson),
    };
  }

  /** Runs the turn_end hooks. */
  async turnEnded(result: { reason: string; text: string }): Promise<void> {
    const event = {
      hook_event_name: "turn_end",
      session_id: this.ctx.sessionId(),
      cwd: this.ctx.cwd,
      reason: result.reason,
      answer: result.text,
    };
    for (const hook of this.config.turn_end) await this.runReported("turn_end", hook, event);
  }

  private async runReported(
    kind: string,
    hook: { command: string; timeout_seconds: number },
    event: unknown,
    signal?: AbortSignal,
  ) {
    const r = await runHook(hook.command, event, this.options(hook, signal));
    if (r.code !== 0) this.failed(kind, hook.command, r);
  }

  private options(hook: { timeout_seconds: number }, signal?: AbortSignal) {
    return { cwd: this.ctx.cwd, timeoutSeconds: hook.timeout_seconds, ...(signal ? { signal } : {}) };
  }

  private failed(
    kind: string,
    command: string,
    r: { code: number | null; stderr: string; timedOut: boolean },
  ) {
    const how = r.timedOut ? "timed out" : r.code === null ? "could not run" : `exited ${r.code}`;
    const why = firstLine(r.stderr);
    this.ctx.warn(`${kind} hook '${command}' ${how}${why ? `: ${why}` : ""}`);
  }
}
