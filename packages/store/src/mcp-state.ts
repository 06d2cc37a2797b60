// Live MCP server states (migration 0032): what each running process's servers are doing, for the
// dashboard in another process. A process writes its own rows (owner = platform and pid) on every
// change and removes them when it closes.
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export interface McpStateInput {
  server: string;
  state: string;
  transport: string;
  tools: number;
  lastError?: string;
  restarts: number;
}

export interface McpStateRow extends McpStateInput {
  owner: string;
  platform: string;
  pid: number;
  /** The process's machine where the engine is shared by several (Postgres); absent: this one. */
  host?: string;
  startedAt: number;
  updatedAt: number;
}

export class McpStates {
  private readonly stmts: CachedDatabase;

  constructor(private readonly db: Database) {
    this.stmts = withStatementCache(db);
  }

  /** Replaces `owner`'s rows with `servers` (a server no longer configured goes). */
  record(
    owner: { platform: string; pid: number; startedAt: number },
    servers: McpStateInput[],
    now = Date.now(),
  ): void {
    const key = `${owner.platform}:${owner.pid}`;
    const remove = this.stmts.prepare("DELETE FROM mcp_server_state WHERE owner = ?");
    const insert = this.stmts.prepare(
      "INSERT INTO mcp_server_state (owner, server, platform, pid, state, transport, tools, last_error, restarts, started_at, updated_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.db
      .transaction(() => {
        remove.run(key);
        for (const s of servers)
          insert.run(
            key,
            s.server,
            owner.platform,
            owner.pid,
            s.state,
            s.transport,
            s.tools,
            s.lastError ?? null,
            s.restarts,
            owner.startedAt,
            now,
          );
      })
      .immediate();
  }

  /** Removes the rows of a process that is closing. */
  clear(platform: string, pid: number): void {
    this.stmts.prepare("DELETE FROM mcp_server_state WHERE owner = ?").run(`${platform}:${pid}`);
  }

  list(): McpStateRow[] {
    return this.stmts
      .prepare<McpStateRow & { lastError: string | null }>(
        "SELECT owner, server, platform, pid, state, transport, tools, last_error AS lastError, restarts, " +
          "started_at AS startedAt, updated_at AS updatedAt FROM mcp_server_state ORDER BY platform, pid, server",
      )
      .all()
      .map((r) => {
        const { lastError, ...rest } = r;
        return lastError === null ? rest : { ...rest, lastError };
      });
  }
}
