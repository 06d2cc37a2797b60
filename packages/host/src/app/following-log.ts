// The Agent's conversation log that follows a session split (SPEC C4): when compression ends the
// session inside a turn, the rest of the turn is written into the child session.
import { type ConversationLog, StoreConversation, type UsageRow } from "@iris/agent";
import type { Message } from "@iris/llm";
import type { Store } from "@iris/store";

export class FollowingConversation implements ConversationLog {
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

  /** From now on read and write the given session (loaded fresh from the store). */
  moveTo(sessionId: string): void {
    this.inner = new StoreConversation(this.store, sessionId);
  }
}
