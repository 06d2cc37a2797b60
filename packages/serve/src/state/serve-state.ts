// `iris serve`'s own state (SPEC E3), on whichever engine the profile's store uses: the
// conversation after each Responses API response (what `previous_response_id` and `conversation`
// continue), the answers recorded under an Idempotency-Key, and each API key's requests of the
// last minute. Rows belong to an owner (the API key), expire and are bounded; every write is one
// transaction, so replicas of one profile never leave more than `max` rows. Engines: sqlite.ts,
// postgres.ts; the tables: tables.ts.
import type { Message } from "@iris/llm";
import type { StreamLog } from "./stream-log.js";

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A stored conversation and the record kept beside it (serve's response object: opaque here). */
export interface StoredEntry {
  history: Message[];
  record?: unknown;
}

/** When a written row expires, how many the table keeps at most, and the writer's clock. */
export interface Bounds {
  expiresAt: number;
  max: number;
  now: number;
}

/** A key's request count in the sliding minute before `now`. */
export interface RequestCounter {
  /**
   * Counts a request of `key` unless `limit` requests were counted in the minute before `now`;
   * then it is not counted, and the answer is how many ms until the oldest leaves the window.
   */
  countRequest(key: string, limit: number, now: number): Promise<number | undefined>;
}

export interface ServeState extends RequestCounter {
  /** Responses streamed in the background, event by event (Last-Event-ID resumes them). */
  readonly streams: StreamLog;
  /** The conversation under (owner, key), unless missing or expired at `now`. */
  responseEntry(owner: string, key: string, now: number): Promise<StoredEntry | undefined>;
  /** Stores (or replaces, as the newest) the conversation under each key, in one transaction. */
  putResponse(
    owner: string,
    keys: readonly string[],
    history: readonly Message[],
    bounds: Bounds,
    record?: unknown,
  ): Promise<void>;
  /** Removes what (owner, key) holds; whether there was a live entry. */
  deleteResponse(owner: string, key: string, now: number): Promise<boolean>;
  responseCount(): Promise<number>;
  /** The answer recorded under an idempotency scope, unless missing or expired at `now`. */
  answer(scope: string, now: number): Promise<RecordedAnswer | undefined>;
  putAnswer(scope: string, answer: RecordedAnswer, bounds: Bounds): Promise<void>;
  /**
   * Claims `scope` for a request about to run, unless an answer is recorded (then that answer) or
   * another process's claim lives until after `now` ("running"). Postgres keeps the claim as a row
   * every replica sees, until `expiresAt` or the answer; SQLite (one process, whose requests wait
   * for each other in memory) writes nothing.
   */
  claimAnswer(
    scope: string,
    claim: { expiresAt: number; now: number },
  ): Promise<RecordedAnswer | "claimed" | "running">;
  /** Drops a claim that got no answer to keep (the request failed: a retry runs again). */
  releaseClaim(scope: string): Promise<void>;
  answerCount(): Promise<number>;
}

/** A stored history column: a bare array (entries written before records were kept) or both. */
export function parseEntry(json: string): StoredEntry {
  const stored = JSON.parse(json) as Message[] | { history: Message[]; record: unknown };
  return Array.isArray(stored) ? { history: stored } : stored;
}

export function entryJson(history: readonly Message[], record: unknown): string {
  return JSON.stringify(record === undefined ? history : { history, record });
}
