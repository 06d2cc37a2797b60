// Every configured MCP server of a process (SPEC T6, U8). All start at once; the caller waits at
// most a stated bound (MCP_STARTUP_BOUND_MS) for them before the first prompt, and a server that
// comes up later joins the registry then (sessions opened after that offer its tools). A server's
// tools are (re-)registered whenever its list changes: first connect, revival, list_changed.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../registry/registry.js";
import { expandServerConfig, type McpServerConfig } from "./config.js";
import { McpConnection, type McpState } from "./connection.js";
import { mcpToolset } from "./names.js";
import { mcpToolDefinition } from "./tool-def.js";

/** How long the first prompt may wait for MCP servers still starting. */
export const MCP_STARTUP_BOUND_MS = 5000;
/** How long close() waits for servers to go: exit never hangs on one (a stuck one is left behind). */
export const MCP_CLOSE_BOUND_MS = 3000;

export interface McpServerStatus {
  name: string;
  state: McpState;
  transport: "stdio" | "http";
  /** Registered names, as the model sees them. */
  tools: string[];
  lastError?: string;
  restarts: number;
}

export interface McpManagerOptions {
  servers: Record<string, McpServerConfig>;
  /** The profile's environment, for `${VAR}` placeholders. */
  env: Record<string, string | undefined>;
  registry: ToolRegistry;
  /** The set of registered MCP tools changed. */
  onChange?(): void;
  /** A server's state or tools changed: every server's status now (the host records it for the dashboard). */
  onStatus?(statuses: McpServerStatus[]): void;
  backoffMs?: { first: number; max: number };
  /** false: no retries after a failure (a one-off probe such as `iris mcp test`). Default true. */
  revive?: boolean;
  /** Failed attempts in a row before a server is left failed (default MCP_MAX_ATTEMPTS). */
  maxAttempts?: number;
}

export class McpManager {
  readonly connections = new Map<string, McpConnection>();
  private readonly registered = new Map<string, string[]>();
  private readonly configErrors = new Map<string, string>();
  private closing = false;

  constructor(private readonly opts: McpManagerOptions) {
    for (const [name, raw] of Object.entries(opts.servers)) {
      let config: McpServerConfig;
      try {
        config = expandServerConfig(name, raw, opts.env);
      } catch (e) {
        this.configErrors.set(name, e instanceof Error ? e.message : String(e));
        continue;
      }
      const connection: McpConnection = new McpConnection({
        name,
        config,
        // A dead server's tools stay registered (a session that offers them gets "not running,
        // being restarted" from a call); new menus leave them out through `available`.
        onTools: (tools) => this.register(connection, tools),
        onState: (state) => {
          if (this.closing) return;
          // A lost server and one given up on go to the log with why (U8: failures are reported).
          if (state === "restarting" || (state === "failed" && connection.restarts > 0))
            opts.registry.logger.warn(
              `MCP server '${name}' ${state === "failed" ? "given up" : "down, trying again"}: ${connection.lastError ?? ""}`,
            );
          if (state === "ready" || state === "restarting") opts.onChange?.();
          this.statusChanged();
        },
        ...(opts.backoffMs ? { backoffMs: opts.backoffMs } : {}),
        ...(opts.revive === false ? { revive: false } : {}),
        ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
      });
      this.connections.set(name, connection);
    }
  }

  /** The toolset names of the configured servers (for the `mcp` composite toolset). */
  toolsets(): string[] {
    return Object.keys(this.opts.servers).map(mcpToolset);
  }

  /**
   * Starts every enabled server at once; resolves when each has connected or failed its first
   * attempt (a failed one is `restarting` while retries are due).
   */
  startAll(): Promise<void> {
    return Promise.all([...this.connections.values()].map((c) => c.start())).then(() => undefined);
  }

  /** Starts them all and waits at most `boundMs` (servers still starting keep going). */
  async startWithin(boundMs = MCP_STARTUP_BOUND_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
      timer.unref();
    });
    await Promise.race([this.startAll(), bound]);
    clearTimeout(timer);
  }

  status(): McpServerStatus[] {
    const out: McpServerStatus[] = [];
    for (const [name, raw] of Object.entries(this.opts.servers)) {
      const c = this.connections.get(name);
      const transport = "command" in raw ? "stdio" : "http";
      const configError = this.configErrors.get(name);
      if (!c) {
        out.push({ name, state: "failed", transport, tools: [], restarts: 0, lastError: configError ?? "" });
        continue;
      }
      out.push({
        name,
        state: c.state,
        transport,
        tools: this.registered.get(name) ?? [],
        restarts: c.restarts,
        ...(c.lastError !== undefined ? { lastError: c.lastError } : {}),
      });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async close(): Promise<void> {
    this.closing = true;
    const all = Promise.all([...this.connections.values()].map((c) => c.close()));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, MCP_CLOSE_BOUND_MS).unref())]);
    for (const name of [...this.registered.keys()]) this.unregister(name);
  }

  private register(connection: McpConnection, tools: McpTool[]): void {
    const { config, name } = connection;
    const include = config.include_tools ? new Set(config.include_tools) : undefined;
    const exclude = new Set(config.exclude_tools);
    const kept = tools.filter((t) => (!include || include.has(t.name)) && !exclude.has(t.name));
    const previous = new Set(this.registered.get(name) ?? []);
    const names: string[] = [];
    for (const tool of kept) {
      const def = mcpToolDefinition(connection, tool);
      previous.delete(def.name);
      if (this.opts.registry.has(def.name) && !(this.registered.get(name) ?? []).includes(def.name)) {
        this.opts.registry.logger.warn(
          `MCP tool '${def.name}' clashes with a tool already registered; skipped`,
        );
        continue;
      }
      this.opts.registry.unregister(def.name);
      this.opts.registry.register(def);
      names.push(def.name);
    }
    for (const gone of previous) this.opts.registry.unregister(gone);
    this.registered.set(name, names.sort());
    if (!this.closing) this.opts.onChange?.();
    this.statusChanged();
  }

  private statusChanged(): void {
    if (!this.closing && this.opts.onStatus) this.opts.onStatus(this.status());
  }

  private unregister(name: string): void {
    const names = this.registered.get(name);
    if (!names) return;
    for (const n of names) this.opts.registry.unregister(n);
    this.registered.delete(name);
    if (!this.closing) this.opts.onChange?.();
  }
}
