// What `previous_response_id` and `conversation` continue (SPEC E3): the conversation after each
// response, kept in memory, bounded in count (the oldest go first) and expiring after a TTL.
// Entries belong to the API key that made them; another key gets "not found".
import type { Message } from "@iris/llm";

interface Entry {
  owner: string;
  history: Message[];
  expires: number;
}

export class ResponseStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(owner: string, key: string): { history: Message[] } | undefined {
    const e = this.entries.get(key);
    if (!e || e.owner !== owner) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return { history: e.history };
  }

  put(owner: string, key: string, history: Message[]): void {
    this.entries.delete(key);
    this.entries.set(key, { owner, history, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** A named conversation's key: scoped to its owner, apart from response ids. */
  static conversationKey(owner: string, name: string): string {
    return `conv:${JSON.stringify([owner, name])}`;
  }

  get size(): number {
    return this.entries.size;
  }
}
