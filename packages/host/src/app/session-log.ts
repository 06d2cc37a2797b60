// The conversation log a Session writes (ARCHITECTURE.md: conversation logs are ports): the
// store's (state.db, the default), memory (the API server's stateless requests) or a JSONL file
// (batch trajectories). Compression, receipts and shaping run the same on each: a split goes
// through `split`, receipts through `receipts`, and the shaper reads the same history.
import type { ConversationLog, ReceiptStore, SplitOptions } from "@iris/agent";
import type { Message } from "@iris/llm";

/** Which log a session is opened on (IrisProcess.openSession). */
export type LogChoice =
  | { kind: "store" }
  /** `history`: what the client sent; nothing of the conversation lands in state.db. */
  | { kind: "memory"; history?: readonly Message[] }
  /** One file per conversation; an existing file is continued (its prompt and history reused). */
  | { kind: "jsonl"; path: string };

export interface SessionLog extends ConversationLog {
  /**
   * Ends this conversation with a compacted history: the log continues under the returned id
   * (SPEC C4). On the store the old session ends and a child holds the history.
   */
  split(compacted: readonly Message[], opts: SplitOptions): Promise<string>;
  /**
   * Replaces the history with `pruned` (same length, old tool outputs cut) and stays in the
   * same conversation (C4 splits only for a summary). Logs without it split instead.
   */
  prune?(pruned: readonly Message[]): Promise<void>;
}

/** A log other than the store's: it keeps its own receipts and, for JSONL, its frozen prompt. */
export interface DetachedLog extends SessionLog {
  readonly receipts: ReceiptStore;
  readonly systemPrompt?: string | undefined;
  setSystemPrompt?(text: string): void;
}
