// Each gateway platform's health as the gateway last recorded it (migration 0031): connected,
// degraded (with the error that made it so) or stopped; read by the dashboard in another process.
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export type PlatformState = "connected" | "degraded" | "stopped";

export interface PlatformHealthRow {
  platform: string;
  state: PlatformState;
  pid: number;
  /** The gateway's machine where the engine is shared by several (Postgres); absent: this one. */
  host?: string;
  lastError: string | null;
  updatedAt: number;
}

export class PlatformHealth {
  private readonly stmts: CachedDatabase;

  constructor(db: Database) {
    this.stmts = withStatementCache(db);
  }

  /** Records the state; a state without an error keeps the last error seen (it stays useful). */
  set(platform: string, state: PlatformState, error?: string, now = Date.now()): void {
    this.stmts
      .prepare(
        "INSERT INTO gateway_platform_health (platform, state, pid, last_error, updated_at) VALUES (?, ?, ?, ?, ?) " +
          "ON CONFLICT(platform) DO UPDATE SET state = excluded.state, pid = excluded.pid, " +
          "last_error = COALESCE(excluded.last_error, last_error), updated_at = excluded.updated_at",
      )
      .run(platform, state, process.pid, error ?? null, now);
  }

  list(): PlatformHealthRow[] {
    return this.stmts
      .prepare<PlatformHealthRow>(
        "SELECT platform, state, pid, last_error AS lastError, updated_at AS updatedAt FROM gateway_platform_health ORDER BY platform",
      )
      .all();
  }
}
