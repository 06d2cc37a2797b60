// The files a receipted call was about to write, as they were right before it ran (migration
// 0033): kept with the receipt when it is begun, read back by `/rewind` for the calls anchored on
// the nodes it takes back.
import type { Database, Statement } from "./driver.js";

/** One file as it was before a call wrote it. */
export interface FileBefore {
  path: string;
  /** Its bytes; null when there was no file (a rewind removes it). */
  content: Buffer | null;
  /** Set when no copy was kept (too large, unreadable): why. `content` is then null. */
  skipped?: string;
}

export interface EffectSnapshotRow extends FileBefore {
  effectId: string;
  /** The assistant node that carries the call (the receipt's anchor). */
  nodeId: string;
  tool: string;
}

interface SnapshotDbRow {
  effect_id: string;
  path: string;
  skipped: string | null;
  content: Buffer | null;
  node_id: string;
  tool: string;
}

export class EffectSnapshots {
  private readonly insert: Statement;
  private readonly onNodes: Statement<SnapshotDbRow>;

  constructor(db: Database) {
    this.insert = db.prepare(
      "INSERT OR IGNORE INTO effect_snapshots (effect_id, path, skipped, content) VALUES (?, ?, ?, ?)",
    );
    // Driven from the snapshots (few rows) into effects by primary key: no index on node ids needed.
    this.onNodes = db.prepare(
      "SELECT s.effect_id, s.path, s.skipped, s.content, e.node_id, e.tool FROM effect_snapshots s " +
        "JOIN effects e ON e.id = s.effect_id WHERE e.node_id IN (SELECT value FROM json_each(?)) " +
        "ORDER BY e.created_at DESC, e.rowid DESC",
    );
  }

  /** Inside the transaction that begins receipt `effectId`. */
  add(effectId: string, files: readonly FileBefore[]): void {
    for (const f of files) this.insert.run(effectId, f.path, f.skipped ?? null, f.skipped ? null : f.content);
  }

  /**
   * The snapshots of the calls anchored on `nodeIds` (a path's nodes: a compression split's path
   * starts in its parent session), the newest call first.
   */
  onAnchors(nodeIds: readonly string[]): EffectSnapshotRow[] {
    if (!nodeIds.length) return [];
    return this.onNodes.all(JSON.stringify(nodeIds)).map((r) => ({
      effectId: r.effect_id,
      nodeId: r.node_id,
      tool: r.tool,
      path: r.path,
      content: r.content,
      ...(r.skipped !== null ? { skipped: r.skipped } : {}),
    }));
  }
}
