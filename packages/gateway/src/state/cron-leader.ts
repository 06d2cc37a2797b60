// Which process leads cron on a Postgres profile ("cron ticks are jobs under one
// leader"): the holder of a transaction-scoped advisory lock on one open transaction. The lock
// goes with the connection, so a leader that dies (a kill, a lost machine) frees it at once for
// the next process that asks; a leader whose connection was lost finds out on its next check and
// steps down.
import type { PostgresQuery, PostgresTables } from "@iris/host";

const TRY_LOCK =
  "SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.gateway_cron_leader')) AS got";

export class CronLeaderLock {
  private held: { tx: PostgresQuery; release: () => void; ended: Promise<void> } | undefined;

  constructor(private readonly tables: PostgresTables) {}

  /**
   * True while this process leads: takes the lock when it is free, and checks that a lock held
   * already is still there (its connection answers). False: another process leads.
   */
  async lead(): Promise<boolean> {
    const held = this.held;
    if (held) {
      try {
        await held.tx.query("SELECT 1");
        return true;
      } catch {
        await this.release();
        return false;
      }
    }
    return new Promise<boolean>((resolve) => {
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      const ended = this.tables
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ got: boolean }>(TRY_LOCK);
          if (rows[0]?.got !== true) return resolve(false);
          this.held = { tx, release, ended };
          resolve(true);
          await released;
        })
        .catch(() => resolve(false))
        .finally(() => {
          if (this.held?.ended === ended) this.held = undefined;
        });
    });
  }

  get leading(): boolean {
    return this.held !== undefined;
  }

  /** Gives the lead up (the transaction ends, and the lock with it). */
  async release(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    held?.release();
    await held?.ended;
  }
}
