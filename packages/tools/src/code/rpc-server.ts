// The host's end of execute_code's tool channel: a unix socket the sandboxed program connects to
// (a path works across the sandbox's network namespace and through a container's bind mount).
// Requests are answered one at a time, in order; only the allowed tools run, each through
// ctx.callTool (the same dispatch and approval as a direct call); past the call limit every
// request is refused with a message that says so.
import { chmodSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";

export interface ToolChannelOptions {
  socketPath: string;
  allowed: ReadonlySet<string>;
  maxCalls: number;
  call(name: string, argumentsJson: string): Promise<{ content: string; isError: boolean }>;
}

export class ToolChannel {
  calls = 0;
  /** Set once a request was refused for the call limit. */
  limitHit = false;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly o: ToolChannelOptions) {
    this.server = createServer((s) => this.serve(s));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.o.socketPath, () => {
        // The sandbox may run as another user (a container's root is not always ours).
        chmodSync(this.o.socketPath, 0o777);
        resolve();
      });
    });
  }

  private serve(s: Socket): void {
    this.sockets.add(s);
    s.on("close", () => this.sockets.delete(s));
    s.on("error", () => undefined);
    let buffered = "";
    let queue = Promise.resolve();
    s.setEncoding("utf8");
    s.on("data", (d: string) => {
      buffered += d;
      for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        queue = queue.then(async () => {
          const reply = await this.answer(line);
          if (!s.destroyed) s.write(`${JSON.stringify(reply)}\n`);
        });
      }
    });
  }

  private async answer(line: string): Promise<{ content: string; isError: boolean } | { error: string }> {
    let req: { tool?: unknown; args?: unknown };
    try {
      req = JSON.parse(line) as { tool?: unknown; args?: unknown };
    } catch {
      return { error: "a tool request was not JSON" };
    }
    const name = typeof req.tool === "string" ? req.tool : "";
    if (!this.o.allowed.has(name))
      return {
        error: `tool '${name}' cannot be called from execute_code; allowed: ${[...this.o.allowed].sort().join(", ")}`,
      };
    if (this.calls >= this.o.maxCalls) {
      this.limitHit = true;
      return { error: `the limit of ${this.o.maxCalls} tool calls per execute_code run was reached` };
    }
    this.calls++;
    try {
      return await this.o.call(name, JSON.stringify(req.args ?? {}));
    } catch (e) {
      return { error: `tool '${name}' failed: ${(e as Error).message}` };
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
