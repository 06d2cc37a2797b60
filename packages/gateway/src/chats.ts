// Open sessions per chat (SPEC G1, U6): a chat key maps to a stored session (gateway_chats), and
// to at most one open Session in memory. Open sessions are bounded and closed when idle, so a
// gateway serving many chats for days stays flat; a closed chat resumes from the store.
import type { IrisProcess, Session } from "@iris/host";
import { chatIdOfKey } from "./pipeline/session-key.js";
import type { GatewayState } from "./state/index.js";

export interface ChatEntry {
  key: string;
  session: Session;
  lastUsed: number;
  /** Turns using the session now: a held session is never closed for idleness or overflow. */
  holds: number;
  /** Unsubscribes the chat's event listener. */
  unsubscribe: () => void;
}

export interface ChatSessionsOptions {
  iris: IrisProcess;
  state: GatewayState;
  platform: string;
  /** The platform's formatting hint, added to each turn's system prompt (never stored). */
  hint?: string;
  /** The toolsets a chat's sessions are limited to (undefined: the gateway's menu). */
  toolsets?(chatId: string): readonly string[] | undefined;
  cwd: string;
  idleMs: number;
  maxOpen: number;
  /** Wires a freshly opened session's events to its chat. */
  attach(key: string, session: Session): () => void;
  /** A chat got a new stored session (its first, or after /new). */
  started?(key: string, sessionId: string, reset: boolean): void;
  now?: () => number;
}

export class ChatSessions {
  private readonly open = new Map<string, ChatEntry>();
  /** Chats whose session is being opened now: a second message waits for the same one. */
  private readonly opening = new Map<string, Promise<ChatEntry>>();
  /** Holds asked for while the chat's session was being opened: counted from its first moment. */
  private readonly pendingHolds = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly opts: ChatSessionsOptions) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.open.size;
  }

  peek(key: string): Session | undefined {
    return this.open.get(key)?.session;
  }

  /** The chat's session: open already, resumed from the store, or new. */
  get(key: string): Promise<Session> {
    return this.lookup(key, false);
  }

  private async lookup(key: string, hold: boolean): Promise<Session> {
    const found = this.open.get(key);
    if (found) {
      if (hold) found.holds++;
      found.lastUsed = this.now();
      // Most recently used last: the map's order is the eviction order.
      this.open.delete(key);
      this.open.set(key, found);
      return found.session;
    }
    if (hold) this.pendingHolds.set(key, (this.pendingHolds.get(key) ?? 0) + 1);
    let opening = this.opening.get(key);
    if (!opening) {
      opening = this.openEntry(key).finally(() => this.opening.delete(key));
      this.opening.set(key, opening);
    }
    const entry = await opening;
    entry.lastUsed = this.now();
    return entry.session;
  }

  private async openEntry(key: string): Promise<ChatEntry> {
    const { iris, state, platform, cwd } = this.opts;
    const source = `gateway:${platform}`;
    const toolsets = this.opts.toolsets?.(chatIdOfKey(key) ?? "");
    const session = iris.openSession({
      source,
      cwd,
      ...(this.opts.hint ? { ephemeralSystemPrompt: this.opts.hint } : {}),
      ...(toolsets ? { toolsets } : {}),
    });
    try {
      const stored = await this.liveChatSession(key, source);
      if (!stored || !(await session.resumeSession(stored))) {
        await session.startSession();
        await state.setChatSession(key, session.id);
        this.opts.started?.(key, session.id, false);
      }
    } catch (err) {
      this.pendingHolds.delete(key);
      await session.close("not opened");
      throw err;
    }
    const unsubscribe = this.opts.attach(key, session);
    // Every hold asked for while it opened is counted before any eviction can see it.
    const holds = this.pendingHolds.get(key) ?? 0;
    this.pendingHolds.delete(key);
    const entry: ChatEntry = { key, session, lastUsed: this.now(), holds, unsubscribe };
    this.open.set(key, entry);
    // The session just asked for is never the one closed.
    void this.evictOverflow(key);
    return entry;
  }

  /**
   * The stored session the chat goes on in, through host's look-up: compression (in this or
   * another process, a terminal's `iris -r` say) moves a session on to a child, and only a
   * session of this platform's chats is the chat's (anything else is as good as none).
   */
  private async liveChatSession(key: string, source: string): Promise<string | undefined> {
    const mapped = await this.opts.state.chatSession(key);
    if (!mapped) return undefined;
    const found = await this.opts.iris.findSession(mapped, { owner: (r) => r.source === source });
    if (!found.ok) return undefined;
    if (found.row.id !== mapped) await this.opts.state.repointChats(mapped, found.row.id);
    return found.row.id;
  }

  /** The chat's session, held open until release(): a turn's session is never closed under it. */
  acquire(key: string): Promise<Session> {
    return this.lookup(key, true);
  }

  release(key: string): void {
    const entry = this.open.get(key);
    if (entry && entry.holds > 0) entry.holds--;
  }

  /** `/new`: a fresh session for the chat; the old one stays in the store. */
  async restart(key: string): Promise<string> {
    const session = await this.get(key);
    const row = await session.startSession();
    await this.opts.state.setChatSession(key, row.id);
    this.opts.started?.(key, row.id, true);
    return row.id;
  }

  /** Closes sessions idle longer than idleMs (never one with a turn running). */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.opts.idleMs;
    const idle = [...this.open.values()].filter(
      (e) => e.lastUsed <= cutoff && e.holds === 0 && !e.session.busy,
    );
    await Promise.all(idle.map((e) => this.close(e)));
    return idle.length;
  }

  private async evictOverflow(keep: string): Promise<void> {
    for (const e of this.open.values()) {
      if (this.open.size <= this.opts.maxOpen) return;
      if (e.key !== keep && e.holds === 0 && !e.session.busy) await this.close(e);
    }
  }

  private async close(e: ChatEntry): Promise<void> {
    if (this.open.get(e.key) !== e) return;
    this.open.delete(e.key);
    e.unsubscribe();
    await e.session.close("idle");
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.values()].map((e) => this.close(e)));
  }
}
