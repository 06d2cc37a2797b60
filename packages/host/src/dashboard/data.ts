// The profile's state as the dashboard reads and steers it (a front end imports host only): one
// writable store connection with the dashboard's indexed reads (store/dashboard-reads.ts), the ask
// board, cron jobs, search, and the few edits the pages offer (rename, delete).
import {
  type AskBoard,
  type AskRow,
  type CronControl,
  type CronState,
  type DashboardReads,
  type McpStateRow,
  type NodeRow,
  openStore,
  type PlatformHealthRow,
  type SearchHit,
  type SessionRow,
  type Store,
} from "@iris/store";
import type { ApprovalAnswer } from "@iris/tools";
import { exportSessionAs, type SessionExportFormat } from "./export.js";

export class DashboardData {
  readonly reads: DashboardReads;
  readonly board: AskBoard;
  readonly cron: CronState;
  readonly cronControl: CronControl;

  private constructor(private readonly store: Store) {
    this.reads = store.dashboard.reads;
    this.board = store.dashboard.asks;
    this.cron = store.cronState;
    this.cronControl = store.dashboard.cron;
  }

  static open(dbPath: string): DashboardData {
    return new DashboardData(openStore(dbPath));
  }

  close(): void {
    this.store.close();
  }

  findSession(idOrPrefix: string): SessionRow | undefined {
    const exact = this.store.findSession(idOrPrefix);
    if (exact) return exact;
    // A short id (its last 8 characters, see shortId) or a unique prefix.
    const ids = this.reads.sessionIdsWithPrefix(idOrPrefix);
    return ids.length === 1 && ids[0] ? this.store.findSession(ids[0]) : undefined;
  }

  search(query: string, limit = 50): SearchHit[] {
    return this.store.search(query, { limit });
  }

  renameSession(id: string, title: string): void {
    this.store.setSessionTitle(id, title);
  }

  deleteSession(id: string): void {
    this.store.deleteSession(id);
    this.board.forgetSession(id);
  }

  exportSession(session: SessionRow, format: SessionExportFormat): string {
    return exportSessionAs(this.store, session, format);
  }

  /** Tips of the session's branches (the newest one is where it continues). */
  branches(sessionId: string): { id: string; createdAt: number }[] {
    return this.reads.branchTips(sessionId);
  }

  /** The session's active leaf (where its next turn continues). */
  activeLeafId(sessionId: string): string | undefined {
    return this.store.activeLeaf(sessionId)?.id;
  }

  /**
   * One page of a branch's conversation, root first: the path to `leafId` after `afterSeq`, at
   * most `limit` nodes, read without loading the whole path. `leafId` must be a branch tip of this
   * session (anything else is undefined: a node id from another session shows nothing).
   */
  branchPage(sessionId: string, leafId: string, afterSeq: number, limit: number): NodeRow[] | undefined {
    if (!this.reads.branchTips(sessionId).some((n) => n.id === leafId)) return undefined;
    return this.store.branchPage(sessionId, leafId, afterSeq, limit);
  }

  /** The turns running now: live session leases (one per running turn, SPEC D1). */
  runningTurns(now = Date.now()): { sessionId: string; pid: number; acquiredAt: number }[] {
    return this.reads.runningTurns(now);
  }

  /** Platforms as the gateway last recorded them; a gateway that died shows its platforms stopped. */
  platformHealth(): PlatformHealthRow[] {
    return this.store.dashboard.health
      .list()
      .map((h) =>
        h.state !== "stopped" && !isAlive(h.pid)
          ? { ...h, state: "stopped", lastError: h.lastError ?? "the gateway process is gone" }
          : h,
      );
  }

  /**
   * MCP servers as the running processes see them (each process records its own); a process that
   * died without closing shows its servers `gone`.
   */
  mcpStates(): McpStateRow[] {
    return this.store.mcpStates
      .list()
      .map((r) =>
        isAlive(r.pid) ? r : { ...r, state: "gone", lastError: `the process (pid ${r.pid}) is gone` },
      );
  }

  /** Waiting asks whose process is alive (a crashed asker's rows are withdrawn first). */
  waitingAsks(): AskRow[] {
    this.board.withdrawOrphans(isAlive);
    return this.board.waiting();
  }

  answerApproval(id: string, answer: ApprovalAnswer, by: string): boolean {
    const ask = this.board.get(id);
    return ask?.kind === "approval" && this.board.answer(id, answer, by);
  }

  answerClarify(id: string, answer: string, by: string): boolean {
    const ask = this.board.get(id);
    return ask?.kind === "clarify" && this.board.answer(id, answer, by);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
