// A conversation log that lives only in memory (ARCHITECTURE.md: conversation logs are ports):
// for stateless requests such as the API server's, where the client sends the whole history and
// nothing may land in state.db. Same port as the store's log; a split (compression) moves it to a
// fresh id holding the compacted history, like a session split does in the store.
import { randomUUID } from "node:crypto";
import type { Message } from "@iris/llm";
import type { ConversationLog, UsageRow } from "../ports.js";

export class MemoryConversation implements ConversationLog {
  private id: string;
  private messages: Message[];
  private nodes = 0;
  private cost = 0;
  /** Usage rows of this conversation (all ids, splits included), oldest first. */
  readonly usage: UsageRow[] = [];

  constructor(opts: { sessionId?: string; history?: readonly Message[] } = {}) {
    this.id = opts.sessionId ?? `mem_${randomUUID()}`;
    this.messages = [...(opts.history ?? [])];
  }

  get sessionId(): string {
    return this.id;
  }

  history(): Message[] {
    return [...this.messages];
  }

  append(message: Message): string {
    this.messages.push(message);
    return `${this.id}:${++this.nodes}`;
  }

  recordUsage(row: UsageRow): void {
    this.usage.push(row);
    this.cost += row.costUsd;
  }

  sessionCostUsd(): number {
    return this.cost;
  }

  /** Continues under a new id with `compacted` as the whole history; returns the new id. */
  split(compacted: readonly Message[]): string {
    this.id = `mem_${randomUUID()}`;
    this.messages = [...compacted];
    this.nodes = 0;
    return this.id;
  }
}
