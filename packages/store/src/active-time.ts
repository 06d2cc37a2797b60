// The time the agent actually worked in a session (migration 0005): the sum of its turns'
// durations. The session budget (SPEC L4) counts this, so idle hours between turns cost nothing.
import type { Database, Statement } from "./driver.js";

export interface ActiveTime {
  activeMs: number;
  turns: number;
}

export class ActiveTimeRepo {
  private readonly add: Statement;
  private readonly read: Statement<{ active_ms: number; turns: number }>;

  constructor(db: Database) {
    this.add = db.prepare(
      "INSERT INTO session_active_time (session_id, active_ms, turns) VALUES (?, ?, 1) " +
        "ON CONFLICT(session_id) DO UPDATE SET active_ms = active_ms + excluded.active_ms, turns = turns + 1",
    );
    this.read = db.prepare("SELECT active_ms, turns FROM session_active_time WHERE session_id = ?");
  }

  /** Adds one finished turn of `ms` milliseconds. */
  addTurn(sessionId: string, ms: number): void {
    this.add.run(sessionId, Math.max(0, Math.round(ms)));
  }

  get(sessionId: string): ActiveTime {
    const row = this.read.get(sessionId);
    return { activeMs: row?.active_ms ?? 0, turns: row?.turns ?? 0 };
  }
}
