// The profile's stored records for commands that run without a model or a process (`iris
// sessions`, `usage`, `effects`, `context`): host opens the profile's store (SQLite or Postgres,
// as config.yaml's `store:` says) and a front end reads and settles through the methods below,
// never holding the store itself. A SQLite store whose home cannot be written
// (a read-only home, another user's files) is opened read-only, so looking never needs write access.
import { messagesOfPath } from "@iris/agent";
import type { Message } from "@iris/llm";
import type {
  ActiveTime,
  EffectRow,
  SearchHit,
  SessionRow,
  Store,
  TableAccess,
  TableSet,
  TableSetVersion,
  UsageDayRow,
  UsageRow,
} from "@iris/store";
import { StoreError } from "@iris/store";
import type { IrisConfig, Profile } from "../config/index.js";
import { type ContextFigures, contextFigures } from "./context-report.js";
import { openProfileStore } from "./profile-store.js";
import { findSession, type LookupOptions, type SessionLookup } from "./session-finder.js";

/** Errors that mean "this home cannot be written", not "this store is broken". */
const NEEDS_WRITE = new Set(["db_readonly", "db_unopenable", "db_io"]);

export class StoredRecords {
  private constructor(private readonly store: Store) {}

  /**
   * The profile's store, opened read-only where a SQLite home cannot be written (unless
   * `readOnlyFallback` is false: a command that must write, like `iris migrate`).
   */
  static async open(
    profile: Pick<Profile, "config" | "env" | "home">,
    opts: { readOnlyFallback?: boolean } = {},
  ): Promise<StoredRecords> {
    try {
      return new StoredRecords(await openProfileStore(profile));
    } catch (err) {
      if (
        opts.readOnlyFallback === false ||
        profile.config.store.backend !== "sqlite" ||
        !(err instanceof StoreError) ||
        !NEEDS_WRITE.has(err.code)
      )
        throw err;
      return new StoredRecords(await openProfileStore(profile, { readonly: true }));
    }
  }

  /** A stored session by id, short id or unique prefix (session-finder.ts). */
  lookUp(ref: string, opts?: LookupOptions): Promise<SessionLookup> {
    return findSession(this.store, ref, opts);
  }

  /** The newest stored sessions, newest first (of one source when given). */
  recent(opts: { limit: number; source?: string }): Promise<SessionRow[]> {
    return this.store.listSessions(opts);
  }

  /** A session's conversation as stored on its active path (summaries included). */
  async history(sessionId: string): Promise<Message[]> {
    return messagesOfPath(await this.store.activePath(sessionId));
  }

  search(query: string, opts: { limit: number }): Promise<SearchHit[]> {
    return this.store.search(query, opts);
  }

  /** Deletes a session with its receipts' file snapshots (for /rewind). */
  deleteSession(sessionId: string): Promise<void> {
    return this.store.deleteSession(sessionId);
  }

  /** Effect receipts: the unresolved ones, or every one (oldest first). */
  effects(opts: { all: boolean }): Promise<EffectRow[]> {
    return opts.all ? this.store.listEffects(1000) : this.store.listUnresolved();
  }

  /** An effect by full id or a unique prefix of at least 4 characters. */
  findEffect(idOrPrefix: string): Promise<EffectRow | undefined> {
    return this.store.findEffect(idOrPrefix);
  }

  /** Settles an unresolved effect after a person checked the outside world. */
  resolveEffect(id: string, outcome: "applied" | "not_applied", evidence: string): Promise<EffectRow> {
    return this.store.resolveEffect(id, outcome, evidence);
  }

  /** A session's recorded API calls, oldest first. */
  usageForSession(sessionId: string): Promise<UsageRow[]> {
    return this.store.usageForSession(sessionId);
  }

  /** How long a session's turns have run, and how many there were. */
  activeTime(sessionId: string): Promise<ActiveTime> {
    return this.store.activeTime.get(sessionId);
  }

  /** Usage per UTC day and provider/model (`key`) between two day numbers (days since the epoch). */
  usageByDay(fromDay: number, toDay: number): Promise<UsageDayRow[]> {
    return this.store.dashboard.reads.usageByDay(fromDay, toDay, "model");
  }

  /** The context budget of a route, with a stored session's own figures when given. */
  contextFigures(args: {
    config: IrisConfig;
    provider: string;
    model: string;
    sessionId?: string;
  }): Promise<ContextFigures> {
    return contextFigures({ ...args, store: this.store });
  }

  /** Where the store's own schema stands (`iris migrate`). */
  schemaVersion(): Promise<{ version: number; latest: number }> {
    return this.store.schemaVersion();
  }

  /** A front end's own tables (its table set, brought to its newest version), for a command of
   * that front end that runs without a process (IrisProcess.openTables does the same). */
  openTables(set: TableSet): Promise<TableAccess> {
    return this.store.openTables(set);
  }

  /** Brings a front end's table set to its newest version and says where it stands. */
  async migrateTables(set: TableSet): Promise<TableSetVersion> {
    await this.store.openTables(set);
    return this.store.tablesVersion(set);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
