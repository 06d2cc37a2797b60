// What `previous_response_id` and `conversation` continue (SPEC E3): the conversation after each
// response, kept in the profile's store (so it survives a restart of `iris serve`, and every
// replica on a Postgres profile sees it: state/), bounded in
// count (the oldest go first) and expiring after a TTL. Beside it each entry keeps the response
// object and its input items, for GET /v1/responses/{id} and /input_items. Entries belong to the
// API key that made them (name and key hash: a new key under an old name does not inherit);
// another key gets "not found".

import type { Message } from "@iris/llm";
import type { ResponseRecord } from "./response-items.js";
import type { ServeState, StreamLog } from "./state/index.js";

export type { ResponseRecord };

export interface StoredResponse {
  history: Message[];
  /** Missing for entries written before records were kept. */
  record?: ResponseRecord;
}

export class ResponseStore {
  constructor(
    private readonly state: ServeState,
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Background responses' recorded streams, bounded and expiring like the responses. */
  get streams(): StreamLog {
    return this.state.streams;
  }

  /** The expiry and bound a row written now gets. */
  bounds(): { expiresAt: number; max: number } {
    return { expiresAt: this.now() + this.ttlMs, max: this.max };
  }

  async get(owner: string, key: string): Promise<StoredResponse | undefined> {
    const entry = await this.state.responseEntry(owner, key, this.now());
    if (!entry) return undefined;
    return isRecord(entry.record)
      ? { history: entry.history, record: entry.record }
      : { history: entry.history };
  }

  /** Under one key, or several (a response id and its conversation) at once. */
  put(
    owner: string,
    key: string | readonly string[],
    history: readonly Message[],
    record?: ResponseRecord,
  ): Promise<void> {
    const now = this.now();
    return this.state.putResponse(
      owner,
      typeof key === "string" ? [key] : key,
      history,
      { expiresAt: now + this.ttlMs, max: this.max, now },
      record,
    );
  }

  /** Whether the owner had a live response under `id` (now gone). */
  delete(owner: string, id: string): Promise<boolean> {
    return this.state.deleteResponse(owner, id, this.now());
  }

  /** A named conversation's key: apart from response ids (which start with `resp_`). */
  static conversationKey(name: string): string {
    return `conv:${name}`;
  }

  size(): Promise<number> {
    return this.state.responseCount();
  }
}

function isRecord(v: unknown): v is ResponseRecord {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Partial<ResponseRecord>;
  return Array.isArray(r.inputItems) && typeof r.response === "object" && Array.isArray(r.response?.output);
}
