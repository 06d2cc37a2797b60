// Recorded stream events on Postgres (stream-log.ts), shared by every replica: the one running
// the turn appends, any other reads what it recorded while it runs and after.
import type { PostgresTables } from "@iris/host";
import type { StreamEvent, StreamLog, StreamStatus } from "./stream-log.js";

export class PostgresStreamLog implements StreamLog {
  constructor(private readonly tables: PostgresTables) {}

  open(owner: string, id: string, b: { expiresAt: number; max: number; now: number }): Promise<void> {
    return this.tables.transaction(async (tx) => {
      // Trims take turns (as serve_responses' do), so replicas never leave more than `max`.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.serve_streams'))");
      // Their events go with them (ON DELETE CASCADE).
      await tx.query("DELETE FROM serve_streams WHERE expires_at <= $1", [b.now]);
      await tx.query(
        "DELETE FROM serve_streams WHERE id IN (SELECT id FROM serve_streams ORDER BY expires_at DESC, id OFFSET $1)",
        [Math.max(0, Math.floor(b.max) - 1)],
      );
      await tx.query(
        "INSERT INTO serve_streams (id, owner, done, alive_at, expires_at) VALUES ($1, $2, false, $3, $4)",
        [id, owner, b.now, b.expiresAt],
      );
    });
  }

  append(id: string, events: readonly StreamEvent[], s: { done: boolean; now: number }): Promise<void> {
    return this.tables.transaction(async (tx) => {
      if (events.length)
        // One statement for the lot: a busy stream writes a batch per round trip.
        await tx.query(
          "INSERT INTO serve_stream_events (stream_id, seq, type, data) " +
            "SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[])",
          [id, events.map((e) => e.seq), events.map((e) => e.type), events.map((e) => e.data)],
        );
      await tx.query("UPDATE serve_streams SET alive_at = $2, done = $3 WHERE id = $1", [id, s.now, s.done]);
    });
  }

  async status(owner: string, id: string, now: number): Promise<StreamStatus | undefined> {
    const { rows } = await this.tables.query<{ done: boolean; alive_at: string }>(
      "SELECT done, alive_at FROM serve_streams WHERE id = $1 AND owner = $2 AND expires_at > $3",
      [id, owner, now],
    );
    const row = rows[0];
    return row ? { done: row.done, aliveAt: Number(row.alive_at) } : undefined;
  }

  async after(id: string, seq: number, limit: number): Promise<StreamEvent[]> {
    const { rows } = await this.tables.query<StreamEvent>(
      "SELECT seq, type, data FROM serve_stream_events WHERE stream_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [id, seq, limit],
    );
    return rows;
  }
}
