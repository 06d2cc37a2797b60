// Where one session's conversation lives (ARCHITECTURE.md: conversation logs are ports): its row
// and the log its turns write, in state.db (the default), in memory (stateless API requests) or
// in a JSONL file (batch). The Session asks it for the log of a turn, the history, title, usage
// and rewind; a detached log (memory, JSONL) keeps its own row, never written to the store.
import {
  JsonlConversation,
  MemoryConversation,
  storedHistory,
  type UsageRow as TurnUsageRow,
} from "@iris/agent";
import type { Message, Runtime } from "@iris/llm";
import type { SessionRow, Store, UsageRow } from "@iris/store";
import { FollowingConversation } from "./following-log.js";
import { inMemoryRow } from "./in-memory-row.js";
import type { DetachedLog, SessionLog } from "./session-log.js";
import { ensureTitle } from "./session-title.js";

export class SessionRecord {
  private current: SessionRow | undefined;
  /** A memory or JSONL log: the conversation is not in state.db (undefined: the store's log). */
  private detachedLog: DetachedLog | undefined;

  constructor(
    private readonly store: Store,
    private readonly source: string,
    private readonly cwd: string,
  ) {}

  /** The row now, or undefined before a session is started or resumed. */
  get started(): SessionRow | undefined {
    return this.current;
  }

  get row(): SessionRow {
    if (!this.current) throw new Error("no session started");
    return this.current;
  }

  get detached(): DetachedLog | undefined {
    return this.detachedLog;
  }

  /** A new session in state.db with its frozen prompt. */
  async createInStore(systemPrompt: string, runtime: Runtime): Promise<SessionRow> {
    this.detachedLog = undefined;
    this.current = await this.store.createSession({
      source: this.source,
      cwd: this.cwd,
      systemPrompt,
      model: runtime.model,
      provider: runtime.provider,
    });
    return this.current;
  }

  /** A JSONL file: an existing one is continued with its own frozen prompt. */
  openJsonl(path: string, systemPrompt: () => string, runtime: Runtime): JsonlConversation {
    const log = new JsonlConversation(path);
    if (log.systemPrompt === undefined) log.setSystemPrompt(systemPrompt());
    this.detach(log, log.systemPrompt ?? "", runtime);
    return log;
  }

  /** A conversation held only in memory: `history` is what the client sent. */
  openInMemory(history: readonly Message[], systemPrompt: string, runtime: Runtime): SessionRow {
    return this.detach(new MemoryConversation({ history }), systemPrompt, runtime);
  }

  /** A stored session taken up again (a resume). */
  resumed(row: SessionRow): void {
    this.current = row;
    this.detachedLog = undefined;
  }

  private detach(log: DetachedLog, systemPrompt: string, runtime: Runtime): SessionRow {
    this.detachedLog = log;
    this.current = inMemoryRow({
      id: log.sessionId,
      source: this.source,
      cwd: this.cwd,
      systemPrompt,
      model: runtime.model,
      provider: runtime.provider,
    });
    return this.current;
  }

  /** The log the next turn writes: the detached one, or the store's (following splits). */
  async logForTurn(): Promise<SessionLog> {
    return this.detachedLog ?? (await FollowingConversation.open(this.store, this.row.id));
  }

  /** The conversation as the next turn sees it (in memory, or the store's active path). */
  history(): Promise<Message[]> {
    return this.detachedLog?.history() ?? storedHistory(this.store, this.row.id);
  }

  /** The session's row now (title, cost, active leaf), re-read from the store. */
  async reread(): Promise<SessionRow> {
    if (this.detachedLog || !this.current) return this.row;
    return (await this.store.findSession(this.current.id)) ?? this.current;
  }

  /** Names the session from its first prompt when it has no title yet. */
  async ensureTitle(firstPrompt: string): Promise<void> {
    if (!this.detachedLog) await ensureTitle(this.store, this.row.id, firstPrompt);
  }

  async setTitle(title: string): Promise<void> {
    if (this.detachedLog) this.current = { ...this.row, title };
    else await this.store.setSessionTitle(this.row.id, title);
  }

  /** This session's billed calls (empty for a memory or JSONL log: their rows stay with the log). */
  async usage(): Promise<UsageRow[]> {
    return this.detachedLog ? [] : this.store.usageForSession(this.row.id);
  }

  /** Moves the conversation back to `leafId` (null: before the first message). */
  async rewindTo(leafId: string | null): Promise<void> {
    if (this.detachedLog) throw new Error("a conversation outside state.db cannot be rewound");
    if (leafId) await this.store.branchFrom(leafId);
    else await this.store.clearActiveLeaf(this.row.id);
  }

  /** One billed call made outside a turn's loop, straight to its log (no history loaded). */
  async recordUsage(row: TurnUsageRow): Promise<void> {
    if (this.detachedLog) await this.detachedLog.recordUsage(row);
    else await this.store.recordUsage({ sessionId: this.row.id, ...row });
  }

  /** A model switch: the rebuilt prompt and the new route, in the log and the row. */
  async switched(systemPrompt: string, runtime: Runtime): Promise<void> {
    if (!this.current) return;
    if (this.detachedLog) {
      this.setDetachedPrompt(systemPrompt);
      this.current = { ...this.current, model: runtime.model, provider: runtime.provider };
    } else {
      const id = this.current.id;
      await this.store.setSystemPrompt(id, systemPrompt);
      await this.store.setSessionModel(id, runtime.model, runtime.provider);
      this.current = await this.store.getSession(id);
    }
  }

  /** A compression split: the conversation goes on under `id` with the rebuilt prompt. */
  async adopt(id: string, systemPrompt: string): Promise<void> {
    if (this.detachedLog && this.current) {
      this.current = { ...this.current, id };
      this.setDetachedPrompt(systemPrompt);
    } else {
      await this.store.setSystemPrompt(id, systemPrompt);
      this.current = await this.store.getSession(id);
    }
  }

  /** A detached log's frozen prompt changed (a compression, a model switch). */
  private setDetachedPrompt(prompt: string): void {
    this.detachedLog?.setSystemPrompt?.(prompt);
    if (this.current) this.current = { ...this.current, systemPrompt: prompt };
  }
}
