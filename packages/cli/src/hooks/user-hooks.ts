// The user's hooks (config.yaml `hooks:`, SPEC E1) around the CLI's turns, in the chat and in
// `iris -p`: pre_tool_use before each call runs (exit 2 blocks it: the model is told the hook's
// stderr), post_tool_use after it with its result, turn_end when a turn has ended. A hook that
// fails otherwise (another exit code, a timeout) is reported and changes nothing.
import type { AgentEvents, FrontEnd, IrisConfig } from "@iris/host";
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
  /** The arguments of calls in flight, for their post_tool_use event. */
  private readonly calls = new Map<string, { name: string; argumentsJson: string }>();
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly config: IrisConfig["hooks"],
    private readonly ctx: UserHooksContext,
  ) {
    const compile = (hooks: ToolHook[]) =>
      hooks.map((hook) => ({ hook, matches: new RegExp(`^(?:${hook.matcher ?? ".*"})$`) }));
    this.pre = compile(config.pre_tool_use);
    this.post = compile(config.post_tool_use);
  }

  /** The front end with the pre_tool_use hooks in front of every call. */
  around(frontEnd: FrontEnd): FrontEnd {
    if (!this.pre.length) return frontEnd;
    return {
      ...frontEnd,
      beforeTool: async (call, signal) => {
        for (const { hook, matches } of this.pre) {
          if (!matches.test(call.name)) continue;
          const event = {
            hook_event_name: "pre_tool_use",
            session_id: this.ctx.sessionId(),
            cwd: this.ctx.cwd,
            tool_name: call.name,
            tool_call_id: call.callId,
            tool_input: parseArgs(call.argumentsJson),
          };
          const r = await runHook(hook.command, event, this.options(hook, signal));
          if (r.code === 2)
            return firstLine(r.stderr) || `the pre_tool_use hook '${hook.command}' refused it`;
          if (r.code !== 0) this.failed("pre_tool_use", hook.command, r);
        }
        return undefined;
      },
    };
  }

  /** post_tool_use after each finished call; detaches. */
  attach(events: AgentEvents): () => void {
    if (!this.post.length) return () => {};
    const offs = [
      events.on("tool_gen", ({ call }) => this.calls.set(call.callId, call)),
      events.on("tool_progress", (p) => {
        if (p.phase !== "after") return;
        const call = this.calls.get(p.callId);
        this.calls.delete(p.callId);
        const event = {
          hook_event_name: "post_tool_use",
          session_id: this.ctx.sessionId(),
          cwd: this.ctx.cwd,
          tool_name: p.name,
          tool_call_id: p.callId,
          tool_input: call ? parseArgs(call.argumentsJson) : null,
          tool_result: p.result ?? p.message ?? "",
          is_error: p.isError === true,
        };
        for (const { hook, matches } of this.post)
          if (matches.test(p.name)) this.track(this.runReported("post_tool_use", hook, event));
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Runs the turn_end hooks, after the post_tool_use hooks still running have finished. */
  async turnEnded(result: { reason: string; text: string }): Promise<void> {
    await this.settled();
    const event = {
      hook_event_name: "turn_end",
      session_id: this.ctx.sessionId(),
      cwd: this.ctx.cwd,
      reason: result.reason,
      answer: result.text,
    };
    for (const hook of this.config.turn_end) await this.runReported("turn_end", hook, event);
  }

  /** Waits for the hooks still running. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  private track(p: Promise<unknown>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private async runReported(
    kind: string,
    hook: { command: string; timeout_seconds: number },
    event: unknown,
  ) {
    const r = await runHook(hook.command, event, this.options(hook));
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
