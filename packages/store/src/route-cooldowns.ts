// Route cooldowns that outlive the process (migration 0005, SPEC U4): a route that failed is
// passed over until its expiry by every process of the profile, not only the one that saw it fail.
import type { Database, Statement } from "./driver.js";

export interface RouteCooldownRow {
  routeKey: string;
  untilMs: number;
  reason: string | null;
  setAt: number;
}

export interface CooldownDbRow {
  route_key: string;
  until_ms: number;
  reason: string | null;
  set_at: number;
}

export class RouteCooldownRepo {
  private readonly upsert: Statement;
  private readonly remove: Statement;
  private readonly one: Statement<CooldownDbRow>;
  private readonly active: Statement<CooldownDbRow>;
  private readonly prune: Statement;

  constructor(db: Database) {
    this.upsert = db.prepare(
      "INSERT INTO route_cooldowns (route_key, until_ms, reason, set_at) VALUES (?, ?, ?, ?) " +
        "ON CONFLICT(route_key) DO UPDATE SET until_ms = excluded.until_ms, reason = excluded.reason, set_at = excluded.set_at",
    );
    this.remove = db.prepare("DELETE FROM route_cooldowns WHERE route_key = ?");
    this.one = db.prepare(
      "SELECT route_key, until_ms, reason, set_at FROM route_cooldowns WHERE route_key = ?",
    );
    this.active = db.prepare(
      "SELECT route_key, until_ms, reason, set_at FROM route_cooldowns WHERE until_ms > ? ORDER BY until_ms DESC",
    );
    this.prune = db.prepare("DELETE FROM route_cooldowns WHERE until_ms <= ?");
  }

  set(routeKey: string, untilMs: number, reason: string | undefined, now: number): void {
    this.upsert.run(routeKey, Math.round(untilMs), reason ?? null, now);
  }

  clear(routeKey: string): void {
    this.remove.run(routeKey);
  }

  get(routeKey: string): RouteCooldownRow | undefined {
    const row = this.one.get(routeKey);
    return row ? toCooldownRow(row) : undefined;
  }

  /** Cooldowns not yet expired at `now`; expired rows are deleted on the way. */
  listActive(now: number): RouteCooldownRow[] {
    this.prune.run(now);
    return this.active.all(now).map(toCooldownRow);
  }
}

export function toCooldownRow(r: CooldownDbRow): RouteCooldownRow {
  return { routeKey: r.route_key, untilMs: r.until_ms, reason: r.reason, setAt: r.set_at };
}
