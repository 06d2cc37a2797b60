// The session's conversation over the store: the active path loaded once, each append one
// durable node below this log's own last node (O(1) in history length), usage rows beside it.
import type { Message } from "@iris/llm";
import type { NodeRow, Store } from "@iris/store";
import type { ConversationLog, UsageRow } from "../ports.js";

export class StoreConversation implements ConversationLog {
  /**
   * The node this log appends below. Appends name their parent explicitly (never "the active
   * leaf"), so a second process writing the same session makes a branch, not an interleaving.
   */
  private leaf: string | null;

  /** The session's conversation as stored now (its active path read once). */
  static async open(store: Store, sessionId: string): Promise<StoreConversation> {
    const log = new StoreConversation(store, sessionId, await store.activePath(sessionId));
    await loadExpansions(store, log.messages);
    return log;
  }

  private readonly messages: Message[];

  private constructor(
    private readonly store: Store,
    readonly sessionId: string,
    path: readonly NodeRow[],
  ) {
    this.messages = messagesOfPath(path);
    this.leaf = path[path.length - 1]?.id ?? null;
  }

  async history(): Promise<Message[]> {
    return [...this.messages];
  }

  async append(message: Message): Promise<string> {
    const row = await this.store.appendNode(this.sessionId, {
      kind: "message",
      message,
      parentId: this.leaf,
    });
    this.leaf = row.id;
    this.messages.push(message);
    return row.id;
  }

  async recordUsage(row: UsageRow): Promise<void> {
    await this.store.recordUsage({ sessionId: this.sessionId, ...row });
  }

  /** This session's spending, its subagents' included (they count against its budget). */
  sessionCostUsd(): Promise<number> {
    return this.store.sessionCostWithChildrenUsd(this.sessionId);
  }

  async sessionActiveMs(): Promise<number> {
    return (await this.store.activeTime.get(this.sessionId)).activeMs;
  }

  recordTurnTime(ms: number): Promise<void> {
    return this.store.activeTime.addTurn(this.sessionId, ms);
  }
}

/** The active path of a stored session as canonical messages (one read). */
export async function storedHistory(store: Store, sessionId: string): Promise<Message[]> {
  const messages = messagesOfPath(await store.activePath(sessionId));
  await loadExpansions(store, messages);
  return messages;
}

/**
 * What each server-side compaction item read from the store stands for (SPEC H5), read with its
 * path: send-time shaping is synchronous, and expands the item from here for another route.
 */
export const compactionExpansions = new WeakMap<Message, Message[]>();

/** A provider's opaque compaction item (readable only by the route that made it). */
export function isServerCompaction(m: Message): boolean {
  return (
    m.role === "assistant" && m.parts.some((p) => p.type === "reasoning" && p.raw?.["type"] === "compaction")
  );
}

/** Reads the originals of every server-side compaction item among `messages` (none: no read). */
async function loadExpansions(store: Store, messages: readonly Message[]): Promise<void> {
  for (const m of messages) {
    const node = isServerCompaction(m) ? compactionNodes.get(m) : undefined;
    if (!node?.expandsTo || compactionExpansions.has(m)) continue;
    const expansion = await store.expandCompaction(node.id);
    compactionExpansions.set(
      m,
      messagesOfPath(expansion.nodes).filter((o) => o !== m),
    );
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
