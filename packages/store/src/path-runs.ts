// Reading one run of a path (migration 0004) as a handful of joined strings, and keeping the
// newest runs of a few sessions so the next read only fetches what was appended since.
//
// Why strings: on a 10,000-node run, handing JavaScript ~10 values per row cost more than
// decoding and parsing the messages themselves. Why a cache: every turn re-reads the session's
// path (a fresh Agent per message) and nodes never change once written, so a run read before
// only grows. The cache holds text, never parsed objects: each read parses anew, so no two
// callers ever share a message object. A row edited by hand in SQL is seen after a reopen.
import type { Database, Statement } from "./driver.js";
import { type Packed, packedColumns, plainRow, toNodeRowFromRun } from "./path-rows.js";
import type { NodeRow } from "./rows.js";

/** Joins ids in the aggregates (char(31)); appendNode refuses ids with control characters. */
const ID_SEPARATOR = "\u001f";
/**
 * Runs kept (one per session and run start); the least recently read goes first. Sized for a
 * process serving many sessions at once (a gateway, the API server), not one CLI user: the
 * character bound below is what limits memory.
 */
export const CACHED_RUNS = 1024;
/** And at most this many characters of text in all (~32 MB): a 10,000-node run is ~2.5M. */
const CACHED_CHARS = 16_000_000;

/** A run's columns, each joined over its rows in seq order. */
export interface RunText {
  ids: string;
  /** Parent ids joined like `ids`, '' for none: a chain when parents[1..] equal ids[..n-1]. */
  parents: string;
  /** seq, created_at and token_count ('' for none), each joined with ','. */
  seqs: string;
  created: string;
  tokens: string;
  /** JSON arrays [seq, Packed] of the rows that are not plain messages, joined with ','. */
  packed: string;
  /** The payload JSON of each row ('null' for none), joined with ','. */
  payloads: string;
}

type RunRow = Omit<RunText, "packed" | "payloads"> & { packed: string | null; payloads: Buffer };
type RunResult = RunRow | { [K in keyof RunRow]: null };

interface CachedRun {
  end: number;
  text: RunText;
  chars: number;
}

export class RunReader {
  private readonly query: Statement<RunResult>;
  private readonly cache = new Map<string, CachedRun>();
  private cachedChars = 0;

  constructor(
    db: Database,
    private readonly maxRuns = CACHED_RUNS,
  ) {
    // nodes_by_session hands the rows over in seq order; decodeRun checks that they ascend.
    // The payloads come as bytes: Buffer's UTF-8 decoder is faster than the driver's.
    this.query = db.prepare(
      `SELECT
         group_concat(id, char(31)) AS ids,
         group_concat(ifnull(parent_id, ''), char(31)) AS parents,
         group_concat(seq) AS seqs,
         group_concat(created_at) AS created,
         group_concat(ifnull(token_count, '')) AS tokens,
         group_concat(json_array(seq, ${packedColumns("")})) FILTER (WHERE NOT (${plainRow("")})) AS packed,
         CAST(group_concat(ifnull(payload, 'null'), ',') AS BLOB) AS payloads
       FROM nodes WHERE session_id = :session AND seq BETWEEN :from AND :to`,
    );
  }

  /** How many runs are cached now. */
  get cachedRuns(): number {
    return this.cache.size;
  }

  /** The rows of the run start..end of a session, or undefined when they are not one chain. */
  read(sessionId: string, start: number, end: number): NodeRow[] | undefined {
    const key = `${sessionId}\u0000${start}`;
    const hit = this.cache.get(key);
    if (hit) this.forget(key, hit);
    let text: RunText | undefined;
    if (hit?.end === end) text = hit.text;
    else if (hit && hit.end < end) {
      const added = this.fetch(sessionId, hit.end + 1, end);
      text = added && joinRuns(hit.text, added);
    }
    let rows = text && decodeRun(text, sessionId, start, end);
    if (!rows) {
      // Not cached, or the cached text no longer fits the table: read the whole run.
      text = this.fetch(sessionId, start, end);
      rows = text && decodeRun(text, sessionId, start, end);
    }
    if (rows && text) this.remember(key, end, text);
    return rows;
  }

  private fetch(sessionId: string, from: number, to: number): RunText | undefined {
    const r = this.query.get({ session: sessionId, from, to });
    if (!r || r.ids === null) return undefined;
    return { ...r, packed: r.packed ?? "", payloads: r.payloads.toString("utf8") };
  }

  private remember(key: string, end: number, text: RunText): void {
    const chars = text.ids.length + text.parents.length + text.payloads.length + text.packed.length;
    if (chars > CACHED_CHARS) return;
    this.cache.set(key, { end, text, chars });
    this.cachedChars += chars;
    for (const [oldKey, old] of this.cache) {
      if (this.cache.size <= this.maxRuns && this.cachedChars <= CACHED_CHARS) break;
      this.forget(oldKey, old);
    }
  }

  private forget(key: string, run: CachedRun): void {
    this.cache.delete(key);
    this.cachedChars -= run.chars;
  }
}

function joinRuns(a: RunText, b: RunText): RunText {
  const join = (x: string, y: string, sep: string) => (x === "" ? y : y === "" ? x : x + sep + y);
  return {
    ids: a.ids + ID_SEPARATOR + b.ids,
    parents: a.parents + ID_SEPARATOR + b.parents,
    seqs: `${a.seqs},${b.seqs}`,
    created: `${a.created},${b.created}`,
    tokens: `${a.tokens},${b.tokens}`,
    packed: join(a.packed, b.packed, ","),
    payloads: `${a.payloads},${b.payloads}`,
  };
}

/** NodeRows from a run's text; undefined unless the rows are exactly start..end, one chain. */
function decodeRun(text: RunText, sessionId: string, start: number, end: number): NodeRow[] | undefined {
  const firstCut = text.parents.indexOf(ID_SEPARATOR);
  const lastCut = text.ids.lastIndexOf(ID_SEPARATOR);
  // Every row's parent is the row before it: parents 2..n joined equal ids 1..n-1 joined.
  if (firstCut < 0 !== lastCut < 0) return undefined;
  if (firstCut >= 0 && text.parents.slice(firstCut + 1) !== text.ids.slice(0, lastCut)) return undefined;
  const firstParent = firstCut < 0 ? text.parents : text.parents.slice(0, firstCut);
  const ids = text.ids.split(ID_SEPARATOR);
  const seqs = text.seqs.split(",");
  const created = text.created.split(",");
  const tokens = text.tokens.split(",");
  let packed: [number, Packed][];
  let payloads: unknown[];
  try {
    packed = JSON.parse(`[${text.packed}]`);
    payloads = JSON.parse(`[${text.payloads}]`);
  } catch {
    return undefined; // a payload edited by hand into invalid JSON: the row-by-row read reports it
  }
  const n = ids.length;
  if (seqs.length !== n || created.length !== n || tokens.length !== n || payloads.length !== n) {
    return undefined;
  }
  if (Number(seqs[0]) !== start || Number(seqs[n - 1]) !== end) return undefined;
  const packedBySeq = new Map(packed);
  const rows: NodeRow[] = new Array(n);
  let previousSeq = -1;
  for (let i = 0; i < n; i++) {
    const seq = Number(seqs[i]);
    if (!(seq > previousSeq)) return undefined;
    previousSeq = seq;
    const token = tokens[i] as string;
    rows[i] = toNodeRowFromRun(
      ids[i] as string,
      seq,
      sessionId,
      i > 0 ? (ids[i - 1] as string) : firstParent === "" ? null : firstParent,
      Number(created[i]),
      token === "" ? null : Number(token),
      packedBySeq.get(seq),
      payloads[i],
    );
  }
  return rows;
}
