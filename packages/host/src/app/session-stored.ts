// What a front end reads and moves of stored sessions through its Session, so it never holds the
// store itself: this conversation's user turns and the branch before one of
// them (/branch, /rewind, /retry), its active time (/usage), and the other sessions it may resume
// (the one look-up, and the newest ones for a picker). A conversation outside state.db (memory,
// JSONL) has no stored turns.
import type { ActiveTime, NodeRow, SessionRow, Store } from "@iris/store";
import { branchBefore, type UserTurn, userTurns } from "./branching.js";
import { findSession, type LookupOptions, type SessionLookup } from "./session-finder.js";

export class StoredSessions {
  constructor(
    private readonly store: Store,
    /** The conversation's id now (it follows compression splits). */
    private readonly currentId: () => string,
  ) {}

  /** This conversation's active path as stored, oldest first (each node with its time). */
  path(): Promise<NodeRow[]> {
    return this.store.activePath(this.currentId());
  }

  /** The user messages of this conversation's active path, numbered from 1 (summaries left out). */
  userTurns(): Promise<UserTurn[]> {
    return userTurns(this.store, this.currentId());
  }

  /** Moves this conversation to just before user message `n`: the next message sent replaces it on
   * a new branch (the old one stays in the store). An error says why not. */
  branchBefore(n: number): ReturnType<typeof branchBefore> {
    return branchBefore(this.store, this.currentId(), n);
  }

  /** How long this conversation's turns have run, and how many there were. */
  activeTime(): Promise<ActiveTime> {
    return this.store.activeTime.get(this.currentId());
  }

  /** A stored session by id, short id or unique prefix (session-finder.ts), to resume. */
  lookUp(ref: string, opts?: LookupOptions): Promise<SessionLookup> {
    return findSession(this.store, ref, opts);
  }

  /** The newest stored sessions, newest first (of one source when given; of one folder too). */
  recent(opts: { limit: number; source?: string; cwd?: string }): Promise<SessionRow[]> {
    const { limit, source, cwd } = opts;
    if (cwd === undefined)
      return this.store.listSessions(source === undefined ? { limit } : { limit, source });
    if (source === undefined) throw new Error("recent: a folder's sessions are listed per source");
    return this.store.sessionPage({ source, cwd, offset: 0, limit });
  }
}
