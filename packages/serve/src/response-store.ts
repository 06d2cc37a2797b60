// What `previous_response_id` and `conversation` continue (SPEC E3): the conversation after each
// response, kept in the profile's state.db (so it survives a restart of `iris serve`), bounded in
// count (the oldest go first) and expiring after a TTL. Entries belong to the API key that made
// them (name and key hash: a new key under an old name does not inherit); another key gets "not found".

import type { ServeState } from "@iris/host";
import type { Message } from "@iris/llm";

export class ResponseStore {
  constructor(
    private readonly state: ServeState,
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(owner: string, key: string): { history: Message[] } | undefined {
    const history = this.state.response(owner, key, this.now());
    return history ? { history } : undefined;
  }

  /** Under one key, or several (a response id and its conversation) at once. */
  put(owner: string, key: string | readonly string[], history: readonly Message[]): void {
    const now = this.now();
    this.state.putResponse(owner, key, history, { expiresAt: now + this.ttlMs, max: this.max, now });
  }

  /** A named conversation's key: apart from response ids (which start with `resp_`). */
  static conversationKey(name: string): string {
    return `conv:${name}`;
  }

  get size(): number {
    return this.state.responseCount();
  }
}
