// Gateway hooks (issue 19 §5): events go to handler scripts in the profile's `hooks/` folder.
// The event `agent:end` runs `hooks/agent.end`; `command:new` runs `hooks/command.new`, then
// `hooks/command` (every command). A handler gets the event as JSON on stdin (and its name in
// IRIS_HOOK_EVENT), runs in the background — never holding up a chat — and is killed at the
// timeout. Its output goes to the log, never to a chat.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import type { Logger } from "@iris/llm";
import { commandEnv } from "@iris/tools";

export type HookEvent =
  | "gateway:startup"
  | "session:start"
  | "session:reset"
  | "agent:start"
  | "agent:end"
  | `command:${string}`;

export class Hooks {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Runs every handler of `event` in the background. */
  emit(event: HookEvent, payload: Record<string, unknown>): void {
    const files = [event.replace(":", ".")];
    if (event.startsWith("command:")) files.push("command");
    for (const name of files) {
      const path = join(this.dir, name);
      try {
        accessSync(path, constants.X_OK);
      } catch {
        continue;
      }
      const run = this.run(path, event, payload).finally(() => this.running.delete(run));
      this.running.add(run);
    }
  }

  private run(path: string, event: string, payload: Record<string, unknown>): Promise<void> {
    return new Promise((resolve) => {
      // Its own process group: a timeout kills the handler and whatever it started.
      const child = spawn(path, [], {
        stdio: ["pipe", "pipe", "pipe"],
        // Without provider keys, like everything else Iris starts.
        env: { ...commandEnv(), IRIS_HOOK_EVENT: event },
        detached: true,
      });
      let output = "";
      const keep = (d: Buffer) => {
        output = (output + d.toString()).slice(-2000);
      };
      child.stdout?.on("data", keep);
      child.stderr?.on("data", keep);
      const timer = setTimeout(() => {
        this.logger.warn("hook timed out", { hook: path, event, timeoutMs: this.timeoutMs });
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }, this.timeoutMs);
      child.once("error", (err) => {
        clearTimeout(timer);
        this.logger.warn("hook failed to start", { hook: path, error: String(err) });
        resolve();
      });
      child.once("close", (code) => {
        clearTimeout(timer);
        if (code !== 0) this.logger.warn("hook failed", { hook: path, event, code, output });
        resolve();
      });
      child.stdin?.on("error", () => {}); // a handler that ignores stdin
      child.stdin?.end(`${JSON.stringify({ event, ...payload })}\n`);
    });
  }

  /** Waits for handlers still running (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
