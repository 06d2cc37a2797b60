// Recorded stream events on SQLite (stream-log.ts): one process serves the profile, and after a
// restart it resumes what the previous one recorded.
import type { SqliteTables } from "@iris/host";
import type { StreamEvent, StreamLog, StreamStatus } from "./stream-log.js";

export class SqliteStreamLog implements StreamLog {
  constructor(private readonly tables: SqliteTables) {}

  async open(owner: string, id: string, b: { expiresAt: number; max: number; now: number }): Promise<void> {
    const t = this.tables;
    t.transaction(() => {
      const gone = "SELECT id FROM serve_streams WHERE expires_at <= ?";
      t.run(`DELETE FROM serve_stream_events WHERE stream_id IN (${gone})`, b.now);
      t.run("DELETE FROM serve_streams WHERE expires_at <= ?", b.now);
      // The newest `max - 1` stay beside the new one.
      const over = "SELECT id FROM serve_streams ORDER BY expires_at DESC, id LIMIT -1 OFFSET ?";
      const keep = Math.max(0, Math.floor(b.max) - 1);
      t.run(`DELETE FROM serve_stream_events WHERE stream_id IN (${over})`, keep);
      t.run(`DELETE FROM serve_streams WHERE id IN (${over})`, keep);
      t.run(
        "INSERT INTO serve_streams (id, owner, done, alive_at, expires_at) VALUES (?, ?, 0, ?, ?)",
        id,
        owner,
        b.now,
        b.expiresAt,
      );
    });
  }

  async append(id: string, events: readonly StreamEvent[], s: { done: boolean; now: number }): Promise<void> {
    const t = this.tables;
    t.transaction(() => {
      for (const e of events)
        t.run(
          "INSERT INTO serve_stream_events (stream_id, seq, type, data) VALUES (?, ?, ?, ?)",
          id,
          e.seq,
          e.type,
          e.data,
        );
      t.run("UPDATE serve_streams SET alive_at = ?, done = ? WHERE id = ?", s.now, s.done ? 1 : 0, id);
    });
  }

  async status(owner: string, id: string, now: number): Promise<StreamStatus | undefined> {
    const row = this.tables.get<{ done: number; alive_at: number }>(
      "SELECT done, alive_at FROM serve_streams WHERE id = ? AND owner = ? AND expires_at > ?",
      id,
      owner,
      now,
    );
    return row ? { done: row.done === 1, aliveAt: row.alive_at } : undefined;
  }

  async after(id: string, seq: number, limit: number): Promise<StreamEvent[]> {
    return this.tables.all<StreamEvent>(
      "SELECT seq, type, data FROM serve_stream_events WHERE stream_id = ? AND seq > ? ORDER BY seq LIMIT ?",
      id,
      seq,
      limit,
    );
  }
}
