// The session's conversation over the store: the active path loaded once, each append one
// durable node below this log's own last node (O(1) in history length), usage rows beside it.
import type { Message } from "@iris/llm";
import type { NodeRow, Store } from "@iris/store";
import type { ConversationLog, UsageRow } from "../ports.js";

export class StoreConversation implements ConversationLog {
  private readonly messages: Message[];
  /**
   * The node this log appends below. Appends name their parent explicitly (never "the active
   * leaf"), so a second process writing the same session makes a branch, not an interleaving.
   */
  private leaf: string | null;

  constructor(
    private readonly store: Store,
    readonly sessionId: string,
  ) {
    const path = store.activePath(sessionId);
    this.messages = messagesOfPath(path);
    this.leaf = path[path.length - 1]?.id ?? null;
  }

  history(): Message[] {
    return [...this.messages];
  }

  append(message: Message): string {
    const row = this.store.appendNode(this.sessionId, { kind: "message", message, parentId: this.leaf });
    this.leaf = row.id;
    this.messages.push(message);
    return row.id;
  }

  recordUsage(row: UsageRow): void {
    this.store.recordUsage({ sessionId: this.sessionId, ...row });
  }

  /** This session's spending, its subagents' included (they count against its budget). */
  sessionCostUsd(): number {
    return this.store.sessionCostWithChildrenUsd(this.sessionId);
  }

  sessionActiveMs(): number {
    return this.store.activeTime.get(this.sessionId).activeMs;
  }

  recordTurnTime(ms: number): void {
    this.store.activeTime.addTurn(this.sessionId, ms);
  }
}

/** The compaction node each message read from one came from (messages are immutable values). */
export const compactionNodes = new WeakMap<Message, NodeRow>();

/**
 * Stored nodes → the canonical messages the model sees. A compaction node stands for the
 * conversation it summarised and is read as a user message holding the summary.
 */
export function messagesOfPath(path: readonly NodeRow[]): Message[] {
  const out: Message[] = [];
  for (const node of path) {
    if (node.kind === "message" && node.message) out.push(node.message);
    // A compaction stored with its message (role chosen from its neighbours) is read as stored;
    // its node is remembered so send-time shaping can expand it (compaction-expander.ts).
    else if (node.kind === "compaction" && node.message) {
      compactionNodes.set(node.message, node);
      out.push(node.message);
    } else if (node.kind === "compaction" && node.text)
      out.push({ role: "user", content: `[Summary of the earlier conversation]\n${node.text}` });
  }
  return out;
}
