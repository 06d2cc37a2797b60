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
  /** The session's log, its history read from the store. */
  static async open(store: Store, sessionId: string): Promise<FollowingConversation> {
    return new FollowingConversation(store, await StoreConversation.open(store, sessionId));
  }

  private constructor(
    private readonly store: Store,
    private inner: StoreConversation,
  ) {}

  get sessionId(): string {
    return this.inner.sessionId;
  }

  history(): Promise<Message[]> {
    return this.inner.history();
  }

  append(message: Message): Promise<string> {
    return this.inner.append(message);
  }

  recordUsage(row: UsageRow): Promise<void> {
    return this.inner.recordUsage(row);
  }

  sessionCostUsd(): Promise<number> {
    return this.inner.sessionCostUsd();
  }

  sessionActiveMs(): Promise<number> {
    return this.inner.sessionActiveMs();
  }

  recordTurnTime(ms: number): Promise<void> {
    return this.inner.recordTurnTime(ms);
  }

  /** Ends the session with a child holding `compacted` (one transaction); continues in the child. */
  async split(compacted: readonly Message[], opts: SplitOptions): Promise<string> {
    const child = await splitSession(this.store, this.sessionId, compacted, opts);
    await this.moveTo(child);
    return child;
  }

  /** The pruned history becomes the session's active branch; the originals stay on the old one. */
  async prune(pruned: readonly Message[]): Promise<void> {
    await writePrunedBranch(this.store, this.sessionId, pruned);
    await this.moveTo(this.sessionId);
  }

  /** From now on read and write the given session (loaded fresh from the store). */
  private async moveTo(sessionId: string): Promise<void> {
    this.inner = await StoreConversation.open(this.store, sessionId);
  }
}
