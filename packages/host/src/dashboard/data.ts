// The profile's state as the dashboard reads and steers it (a front end imports host only): one
// writable store (SQLite or Postgres, as the profile's store: says) with the dashboard's indexed
// reads, the ask board, search, the few edits the pages offer (rename, delete), and front ends'
// table sets (the gateway's cron jobs) opened on the same store.
import { hostname } from "node:os";
import type {
  AskBoard,
  AskRow,
  DashboardReads,
  McpStateRow,
  NodeRow,
  PlatformHealthRow,
  SearchHit,
  SessionRow,
  Store,
  TableAccess,
  TableSet,
} from "@iris/store";
import type { ApprovalAnswer } from "@iris/tools";
import { openProfileStore } from "../app/profile-store.js";
import type { Profile } from "../config/index.js";
import { exportSessionAs, type SessionExportFormat } from "./export.js";

export class DashboardData {
  readonly reads: DashboardReads;
  readonly board: AskBoard;

  private constructor(private readonly store: Store) {
    this.reads = store.dashboard.reads;
    this.board = store.dashboard.asks;
  }

  /** The profile's store, whichever engine its config names. */
  static async open(profile: Pick<Profile, "config" | "env" | "home">): Promise<DashboardData> {
    return new DashboardData(await openProfileStore(profile));
  }

  /** A front end's own tables on this store (the gateway's cron jobs: the cron page). */
  openTables(set: TableSet): Promise<TableAccess> {
    return this.store.openTables(set);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  async findSession(idOrPrefix: string): Promise<SessionRow | undefined> {
    const exact = await this.store.findSession(idOrPrefix);
    if (exact) return exact;
    // A short id (its last 8 characters, see shortId) or a unique prefix.
    const ids = await this.reads.sessionIdsWithPrefix(idOrPrefix);
    return ids.length === 1 && ids[0] ? this.store.findSession(ids[0]) : undefined;
  }

  search(query: string, limit = 50): Promise<SearchHit[]> {
    return this.store.search(query, { limit });
  }

  renameSession(id: string, title: string): Promise<void> {
    return this.store.setSessionTitle(id, title);
  }

  async deleteSession(id: string): Promise<void> {
    await this.store.deleteSession(id);
    await this.board.forgetSession(id);
  }

  exportSession(session: SessionRow, format: SessionExportFormat): Promise<string> {
    return exportSessionAs(this.store, session, format);
  }

  /** Tips of the session's branches (the newest one is where it continues). */
  branches(sessionId: string): Promise<{ id: string; createdAt: number }[]> {
    return this.reads.branchTips(sessionId);
  }

  /** The session's active leaf (where its next turn continues). */
  async activeLeafId(sessionId: string): Promise<string | undefined> {
    return (await this.store.activeLeaf(sessionId))?.id;
  }

  /**
   * One page of a branch's conversation, root first: the path to `leafId` after `afterSeq`, at
   * most `limit` nodes, read without loading the whole path. `leafId` must be a branch tip of this
   * session (anything else is undefined: a node id from another session shows nothing).
   */
  async branchPage(
    sessionId: string,
    leafId: string,
    afterSeq: number,
    limit: number,
  ): Promise<NodeRow[] | undefined> {
    if (!(await this.reads.branchTips(sessionId)).some((n) => n.id === leafId)) return undefined;
    return this.store.branchPage(sessionId, leafId, afterSeq, limit);
  }

  /** The turns running now: live session leases (one per running turn, SPEC D1). */
  runningTurns(now = Date.now()): Promise<{ sessionId: string; pid: number; acquiredAt: number }[]> {
    return this.reads.runningTurns(now);
  }

  /** Platforms as the gateway last recorded them; a gateway that died shows its platforms stopped. */
  async platformHealth(): Promise<PlatformHealthRow[]> {
    return (await this.store.dashboard.health.list()).map((h) =>
      h.state !== "stopped" && !isAliveHere(h)
        ? { ...h, state: "stopped", lastError: h.lastError ?? "the gateway process is gone" }
        : h,
    );
  }

  /**
   * MCP servers as the running processes see them (each process records its own); a process that
   * died without closing shows its servers `gone`.
   */
  async mcpStates(): Promise<McpStateRow[]> {
    return (await this.store.mcpStates.list()).map((r) =>
      isAliveHere(r) ? r : { ...r, state: "gone", lastError: `the process (pid ${r.pid}) is gone` },
    );
  }

  /** Waiting asks whose process is alive (a crashed asker's rows are withdrawn first). */
  async waitingAsks(): Promise<AskRow[]> {
    await this.board.withdrawOrphans(isAlive);
    return this.board.waiting();
  }

  async answerApproval(id: string, answer: ApprovalAnswer, by: string): Promise<boolean> {
    const ask = await this.board.get(id);
    return ask?.kind === "approval" && (await this.board.answer(id, answer, by));
  }

  async answerClarify(id: string, answer: string, by: string): Promise<boolean> {
    const ask = await this.board.get(id);
    return ask?.kind === "clarify" && (await this.board.answer(id, answer, by));
  }
}

/**
 * Whether the process a row names still runs. A process on another machine sharing the store
 * (Postgres) cannot be looked at from here: its row is taken as it says.
 */
function isAliveHere(row: { pid: number; host?: string }): boolean {
  return (row.host !== undefined && row.host !== hostname()) || isAlive(row.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
