// One configured MCP server: connect (stdio, streamable HTTP, or SSE for older servers), list its
// tools, call them, and come back after a crash (U8). A server that fails to start, a stdio server
// that dies and an HTTP server that stops answering are all tried again with backoff (0.5 s
// doubling to 30 s), at most MCP_MAX_ATTEMPTS times in a row; then it stays `failed` with the last
// error. Once it is up again its tools are listed afresh and the owner re-registers them. A call
// while it is down fails at once with a message saying so.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  CallToolResult,
  GetPromptResult,
  Prompt as McpPrompt,
  Tool as McpTool,
  ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { isStdio, type McpServerConfig } from "./config.js";
import { StderrTail } from "./stderr-tail.js";

// The SDK is loaded on first use, so a profile without MCP servers never pays for it.
async function sdk() {
  const [client, sse, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return { ...client, ...sse, ...stdio, ...http, ...types };
}

export type McpState = "disabled" | "starting" | "ready" | "failed" | "restarting" | "closed";

/** Failed attempts in a row (start-up included) before a server is left `failed`. */
export const MCP_MAX_ATTEMPTS = 10;
/** How long a ping may take when a call's failure makes us wonder whether an HTTP server is gone. */
const HEALTH_PING_MS = 10_000;
/** The SDK's ErrorCode.ConnectionClosed (-32000). */
const CONNECTION_CLOSED = -32000;

export interface McpConnectionOptions {
  name: string;
  config: McpServerConfig;
  /** The tools changed (first connect, a revival, a list_changed). */
  onTools?(tools: McpTool[]): void;
  onState?(state: McpState): void;
  /** Restart backoff: first delay and cap in ms (default 500 and 30,000). */
  backoffMs?: { first: number; max: number };
  /** false: a failure stays a failure (`iris mcp test`, doctor). Default true. */
  revive?: boolean;
  /** Failed attempts in a row before giving up (default MCP_MAX_ATTEMPTS). */
  maxAttempts?: number;
  clientVersion?: string;
}

export class McpConnection {
  state: McpState;
  lastError: string | undefined;
  tools: McpTool[] = [];
  /** How many times it was restarted after dying. */
  restarts = 0;
  readonly stderr = new StderrTail();
  private client: Client | undefined;
  private transport: Transport | undefined;
  /** The transport of a connect in progress: close() ends it instead of waiting for the handshake. */
  private connecting: Transport | undefined;
  private childPid: number | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private backoff: number;
  /** Failed attempts since it was last ready. */
  private failures = 0;
  private health: Promise<boolean> | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly opts: McpConnectionOptions) {
    this.state = opts.config.enabled ? "starting" : "disabled";
    this.backoff = opts.backoffMs?.first ?? 500;
  }

  get name(): string {
    return this.opts.name;
  }
  get config(): McpServerConfig {
    return this.opts.config;
  }
  /** The stdio child's pid while it runs. */
  get pid(): number | undefined {
    return this.transport ? this.childPid : undefined;
  }
  get timeoutMs(): number {
    return this.opts.config.timeout_s * 1000;
  }

  /** Connects and lists the tools; never throws (a failure is the state `failed` and `lastError`). */
  async start(): Promise<McpState> {
    if (this.state === "disabled" || this.state === "closed") return this.state;
    try {
      await this.connect();
      // close() may have come while it connected: then the new client goes too.
      if (this.isClosed()) await this.dropClient();
      this.backoff = this.opts.backoffMs?.first ?? 500;
      this.failures = 0;
      this.setState("ready");
    } catch (e) {
      await this.dropClient();
      this.lastError = this.describeFailure(e);
      this.retryOrFail();
    }
    return this.state;
  }

  /** Resolves when the state is one of `states` (or the connection closes). */
  until(states: readonly McpState[]): Promise<McpState> {
    return new Promise((resolve) => {
      const check = () => {
        if (states.includes(this.state) || this.state === "closed") {
          this.waiters.delete(check);
          resolve(this.state);
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.state !== "ready") {
      const why = this.lastError ? ` Last error: ${this.lastError}` : "";
      const next = this.state === "restarting" ? " It is being restarted; try again shortly." : "";
      throw new Error(`MCP server '${this.name}' is not running (${this.state}).${next}${why}`);
    }
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: this.timeoutMs,
      });
      return result as CallToolResult;
    } catch (e) {
      // An HTTP server that went away shows only as failing requests: see whether it still answers
      // (not after an MCP error other than "connection closed": the server answered, or it timed out).
      const code = (e as { code?: unknown }).code;
      const answered = typeof code === "number" && code < 0 && code !== CONNECTION_CLOSED;
      if (signal.aborted || answered || isStdio(this.opts.config) || (await this.answersPing(client)))
        throw e;
      throw new Error(
        `MCP server '${this.name}' cannot be reached (${errorText(e)}); it is being reconnected, try again shortly.`,
      );
    }
  }

  private isClosed(): boolean {
    return this.state === "closed";
  }

  /** The server's prompts ([] when it has none or is not running). */
  async listPrompts(): Promise<McpPrompt[]> {
    const client = this.client;
    if (!client || this.state !== "ready" || !client.getServerCapabilities()?.prompts) return [];
    return (await client.listPrompts(undefined, { timeout: this.timeoutMs })).prompts;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = this.client;
    if (!client || this.state !== "ready")
      throw new Error(`MCP server '${this.name}' is not running (${this.state})`);
    return client.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs });
  }

  async readResource(uri: string): Promise<ReadResourceResult["contents"]> {
    const client = this.client;
    if (!client || this.state !== "ready")
      throw new Error(`MCP server '${this.name}' is not running (${this.state})`);
    return (await client.readResource({ uri }, { timeout: this.timeoutMs })).contents;
  }

  async close(): Promise<void> {
    this.setState("closed");
    clearTimeout(this.restartTimer);
    const pending = this.connecting;
    this.connecting = undefined;
    await Promise.all([pending?.close().catch(() => undefined), this.dropClient()]);
  }

  private async connect(): Promise<void> {
    const {
      Client,
      SSEClientTransport,
      StdioClientTransport,
      StreamableHTTPClientTransport,
      getDefaultEnvironment,
    } = await sdk();
    const client = new Client(
      { name: "iris", version: this.opts.clientVersion ?? "0.1.0" },
      { capabilities: {} },
    );
    const { config } = this.opts;
    if (isStdio(config)) {
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        // The SDK passes only a few safe variables unless told; the user's `env` comes on top.
        env: { ...getDefaultEnvironment(), ...config.env },
        ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
        stderr: "pipe",
      });
      const stderr = transport.stderr;
      stderr?.on("data", (chunk: Buffer) => this.stderr.push(chunk.toString("utf8")));
      const stderrDone = new Promise<void>((resolve) => {
        stderr?.once("end", resolve);
        stderr?.once("close", resolve);
      });
      try {
        await this.attach(client, transport);
        this.childPid = transport.pid ?? undefined;
      } catch (e) {
        // Let the child exit and its last stderr lines arrive: they usually say why (bounded wait).
        await transport.close().catch(() => undefined);
        await Promise.race([stderrDone, sleep(2000)]);
        throw e;
      }
    } else {
      const url = new URL(config.url);
      const requestInit = { headers: config.headers };
      if (config.type === "sse") await this.attach(client, new SSEClientTransport(url, { requestInit }));
      else {
        try {
          await this.attach(client, new StreamableHTTPClientTransport(url, { requestInit }));
        } catch (e) {
          if (config.type === "http") throw e;
          // Older servers speak only HTTP+SSE: the SDK's documented fallback.
          const retry = new Client({ name: "iris", version: this.opts.clientVersion ?? "0.1.0" });
          await this.attach(retry, new SSEClientTransport(url, { requestInit }));
          return;
        }
      }
    }
  }

  private async attach(client: Client, transport: Transport): Promise<void> {
    const { ToolListChangedNotificationSchema } = await sdk();
    this.connecting = transport;
    try {
      await client.connect(transport, { timeout: this.timeoutMs });
      if (this.isClosed()) throw new Error("closed while connecting");
    } catch (e) {
      // A transport that failed to connect is closed here: an SSE one would otherwise keep
      // reconnecting (EventSource retries) and keep the process alive after close().
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      throw e;
    } finally {
      if (this.connecting === transport) this.connecting = undefined;
    }
    this.client = client;
    this.transport = transport;
    client.onclose = () => this.onClosed(client);
    // Transport trouble (an HTTP server's event stream dropped): check that it still answers.
    client.onerror = () => {
      if (!isStdio(this.opts.config)) void this.answersPing(client);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.refreshTools().catch((e) => {
        this.lastError = `listing tools after list_changed: ${errorText(e)}`;
      });
    });
    await this.refreshTools();
  }

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.opts.onTools?.(tools);
  }

  /** The transport closed: expected on close(), a crash otherwise. */
  private onClosed(client: Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.transport = undefined;
    if (this.state === "closed") return;
    const tail = this.stderr.text();
    this.lastError = `the server ${isStdio(this.opts.config) ? "exited" : "closed the connection"}${tail ? `; stderr: ${tail}` : ""}`;
    this.retryOrFail();
  }

  /**
   * Whether the server still answers a ping; when it does not, the connection is dropped and
   * reconnected with backoff (an HTTP server has no process whose exit would tell us).
   */
  private answersPing(client: Client): Promise<boolean> {
    if (client !== this.client) return Promise.resolve(false);
    // One check at a time: a call failing while the event stream's error is being checked waits for it.
    this.health ??= this.ping(client).finally(() => {
      this.health = undefined;
    });
    return this.health;
  }

  private async ping(client: Client): Promise<boolean> {
    try {
      await client.ping({ timeout: Math.min(HEALTH_PING_MS, this.timeoutMs) });
      return true;
    } catch (e) {
      if (client !== this.client || this.isClosed()) return false;
      this.client = undefined;
      this.transport = undefined;
      void client.close().catch(() => undefined);
      this.lastError = `the server stopped answering: ${errorText(e)}`;
      this.retryOrFail();
      return false;
    }
  }

  /** After a failed attempt or a lost connection: try again later, or give up after too many. */
  private retryOrFail(): void {
    if (this.isClosed()) return;
    this.failures++;
    const max = this.opts.maxAttempts ?? MCP_MAX_ATTEMPTS;
    if (this.opts.revive === false) {
      this.setState("failed");
      return;
    }
    if (this.failures >= max) {
      this.lastError = `gave up after ${this.failures} attempts in a row: ${this.lastError ?? ""}`;
      this.setState("failed");
      return;
    }
    this.setState("restarting");
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, this.opts.backoffMs?.max ?? 30_000);
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      this.setState("starting");
      void this.start();
    }, delay);
    this.restartTimer.unref();
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    await client?.close().catch(() => undefined);
  }

  private describeFailure(e: unknown): string {
    const tail = this.stderr.text();
    return `${errorText(e)}${tail ? `; stderr: ${tail}` : ""}`;
  }

  private setState(state: McpState): void {
    if (this.state === "closed") return;
    this.state = state;
    this.opts.onState?.(state);
    for (const w of [...this.waiters]) w();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
