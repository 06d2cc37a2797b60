// A conversation log that lives only in memory (ARCHITECTURE.md: conversation logs are ports):
// for stateless requests such as the API server's, where the client sends the whole history and
// nothing may land in state.db. Same port as the store's log: a split (compression) moves it to a
// fresh id holding the compacted history as the store's split would, and effect receipts are kept
// beside it (LogReceipts) with the store's rules.
import { randomUUID } from "node:crypto";
import type { Message } from "@iris/llm";
import { childNodeInputs } from "../context/split.js";
import type { ConversationLog, UsageRow } from "../ports.js";
import { type LogNode, LogReceipts } from "./log-receipts.js";

export class MemoryConversation implements ConversationLog {
  private id: string;
  private messages: Message[];
  private nodes = 0;
  private cost = 0;
  private readonly byNode = new Map<string, LogNode>();
  /** Usage rows of this conversation (all ids, splits included), oldest first. */
  readonly usage: UsageRow[] = [];
  readonly receipts = new LogReceipts((id) => this.byNode.get(id));

  constructor(opts: { sessionId?: string; history?: readonly Message[] } = {}) {
    this.id = opts.sessionId ?? `mem_${randomUUID()}`;
    this.messages = [...(opts.history ?? [])];
  }

  get sessionId(): string {
    return this.id;
  }

  async history(): Promise<Message[]> {
    return [...this.messages];
  }

  async append(message: Message): Promise<string> {
    return this.appendNow(message);
  }

  private appendNow(message: Message): string {
    this.messages.push(message);
    const id = `${this.id}:${++this.nodes}`;
    this.byNode.set(id, { sessionId: this.id, message });
    return id;
  }

  async recordUsage(row: UsageRow): Promise<void> {
    this.usage.push(row);
    this.cost += row.costUsd;
  }

  async sessionCostUsd(): Promise<number> {
    return this.cost;
  }

  /** Continues under a new id with `compacted` as the whole history; returns the new id. */
  async split(compacted: readonly Message[]): Promise<string> {
    this.id = `mem_${randomUUID()}`;
    this.messages = [];
    this.nodes = 0;
    for (const input of childNodeInputs(compacted)) if (input.message) this.appendNow(input.message);
    return this.id;
  }
}
