// Keeps the two FTS5 indexes up to date with the nodes table (see migration 0003 for why this
// is a catch-up step behind a watermark rather than a trigger inside every append).
import type { Database, Statement, Transaction } from "./driver.js";

export class SearchIndexer {
  private readonly mark: Statement<{ upto: number }>;
  private readonly newest: Statement<{ seq: number | null }>;
  private readonly indexWords: Statement;
  private readonly indexTrigrams: Statement;
  private readonly setMark: Statement;
  private readonly catchUpTx: Transaction<(maxSpan: number) => number>;

  constructor(private readonly db: Database) {
    this.mark = db.prepare("SELECT indexed_upto AS upto FROM search_index_state WHERE id = 1");
    // MAX of the integer primary key is one step down the right edge of the table's b-tree.
    this.newest = db.prepare("SELECT MAX(seq) AS seq FROM nodes");
    const pending = "SELECT seq, search_text FROM nodes WHERE seq > ? AND seq <= ? AND search_text <> ''";
    this.indexWords = db.prepare(`INSERT INTO nodes_fts(rowid, search_text) ${pending}`);
    this.indexTrigrams = db.prepare(`INSERT INTO nodes_fts_trigram(rowid, search_text) ${pending}`);
    this.setMark = db.prepare("UPDATE search_index_state SET indexed_upto = ? WHERE id = 1");
    this.catchUpTx = db.transaction((maxSpan: number) => {
      // Re-read under the write lock: another process may have caught up meanwhile.
      const from = this.indexedUpto();
      const to = Math.min(this.newestSeq(), from + maxSpan);
      if (to <= from) return 0;
      this.indexWords.run(from, to);
      this.indexTrigrams.run(from, to);
      this.setMark.run(to);
      return to - from;
    });
  }

  /** The seq up to which every node is in both indexes. */
  indexedUpto(): number {
    return this.mark.get()?.upto ?? 0;
  }

  /** How many seq numbers lie above the mark (an upper bound on the nodes waiting to be indexed). */
  pending(): number {
    return Math.max(0, this.newestSeq() - this.indexedUpto());
  }

  /**
   * Indexes the nodes above the mark, at most `maxSpan` seq numbers, in one write transaction
   * (FTS5 builds far cheaper in bulk than row by row) and returns the seq span covered. A bounded
   * span keeps the write lock short. Nothing to do costs two reads, no lock.
   */
  catchUp(maxSpan = Number.MAX_SAFE_INTEGER): number {
    if (this.pending() === 0) return 0;
    return this.catchUpTx.immediate(maxSpan);
  }

  /** Rebuilds both indexes from the nodes table: a repair, or the fast path after a bulk import. */
  rebuild(): void {
    this.db
      .transaction(() => {
        this.db.exec("INSERT INTO nodes_fts(nodes_fts) VALUES ('rebuild')");
        this.db.exec("INSERT INTO nodes_fts_trigram(nodes_fts_trigram) VALUES ('rebuild')");
        this.setMark.run(this.newestSeq());
      })
      .immediate();
  }

  private newestSeq(): number {
    return this.newest.get()?.seq ?? 0;
  }
}
