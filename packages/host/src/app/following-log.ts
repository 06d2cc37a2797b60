// The Agent's conversation log that follows a session split (SPEC C4): when compression ends the
// session inside a turn, the rest of the turn is written into the child session.
import {
  type SplitOptions,
  StoreConversation,
  splitSession,
  type UsageRow,
  writePrunedBranch,
} from "@iris/agent";
import type { Message } from "@iris/llm";
import type { Store } from "@iris/store";
import type { SessionLog } from "./session-log.js";

export class FollowingConversation implements SessionLog {
  private inner: StoreConversation;

  constructor(
    private readonly store: Store,
    sessionId: string,
  ) {
    this.inner = new StoreConversation(store, sessionId);
  }

  get sessionId(): string {
    return this.inner.sessionId;
  }

  history(): Message[] {
    return this.inner.history();
  }

  append(message: Message): string {
    return this.inner.append(message);
  }

  recordUsage(row: UsageRow): void {
    this.inner.recordUsage(row);
  }

  sessionCostUsd(): number {
    return this.inner.sessionCostUsd();
  }

  sessionActiveMs(): number {
    return this.inner.sessionActiveMs();
  }

  recordTurnTime(ms: number): void {
    this.inner.recordTurnTime(ms);
  }

  /** Ends the session with a child holding `compacted` (one transaction); continues in the child. */
  split(compacted: readonly Message[], opts: SplitOptions): string {
    const child = splitSession(this.store, this.sessionId, compacted, opts);
    this.moveTo(child);
    return child;
  }

  /** The pruned history becomes the session's active branch; the originals stay on the old one. */
  prune(pruned: readonly Message[]): void {
    writePrunedBranch(this.store, this.sessionId, pruned);
    this.moveTo(this.sessionId);
  }

  /** From now on read and write the given session (loaded fresh from the store). */
  private moveTo(sessionId: string): void {
    this.inner = new StoreConversation(this.store, sessionId);
  }
}
