// The gateway runner (SPEC G1–G4, U3): platform event → dedupe → authorisation → mention filter
// → session key → chat command, clarify answer, or the chat's lane (hygiene → agent per message →
// deliver through the outbox). The stages are small modules in pipeline/; this file wires them.

import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  findCommand,
  type GatewayConfig,
  type GatewayIdentities,
  type GatewayState,
  type HostEvent,
  type IrisProcess,
  type Session,
  type Store,
} from "@iris/host";
import { type Logger, redact, textOf } from "@iris/llm";
import type { ActionButton, PairingPort, PlatformAdapter } from "./adapter.js";
import { PendingAsks } from "./asks.js";
import { withImages } from "./attachments.js";
import { chatHistory } from "./chat-history.js";
import { ChatSessions } from "./chats.js";
import { type ChatRecovery, notAnsweredText, planRecovery, unansweredByChat } from "./continue-unanswered.js";
import { CronScheduler } from "./cron.js";
import { Hooks } from "./hooks.js";
import { ChatLane, type TurnOutcome } from "./lane.js";
import type { Attachment, ChatAddress, InboundMessage } from "./message.js";
import { ParagraphFeed } from "./paragraph-feed.js";
import { type AuthPolicy, authorise } from "./pipeline/authorise.js";
import { Deliverer } from "./pipeline/deliver.js";
import { runHygiene } from "./pipeline/hygiene.js";
import { filterMention } from "./pipeline/mention.js";
import { sessionKey } from "./pipeline/session-key.js";
import type { PlatformRules } from "./platforms/configured.js";
import { ProgressMessage } from "./progress.js";
import { StreamDraft } from "./stream-draft.js";
import type { GatewayToolPort, GatewayTools } from "./tools.js";
import { ChatTurnRender } from "./turn-render.js";
import { TypingIndicator } from "./typing.js";

export type HandleOutcome = "duplicate" | "refused" | "ignored" | "command" | "answer" | "queued";

export interface GatewayOptions {
  iris: IrisProcess;
  adapters: PlatformAdapter[];
  /** Per platform id: its allowed users, send targets and formatting hint (from its plugin). */
  rules?: Readonly<Record<string, PlatformRules>>;
  config: GatewayConfig;
  cwd: string;
  logger: Logger;
  /** Open sessions kept in memory at most (default 200). */
  maxOpenChats?: number;
  /** Where hook handlers live (default: the profile's hooks/ folder). */
  hooksDir?: string;
  hookTimeoutMs?: number;
  /** The gateway's send_message and cronjob tools (registered when the process opened). */
  tools?: GatewayTools;
  /** The cron tick (default 60 s; tests make it shorter). */
  cronTickMs?: number;
  /** How often old dedupe and outbox rows are dropped (default hourly; tests make it shorter). */
  pruneEveryMs?: number;
  /** A platform stopped for good while running (the others keep running). */
  onPlatformStopped?: (platform: string, reason: string) => void;
  /** A platform's health changed: degraded (sends failing, connection lost, with why) or connected again. */
  health?: (platform: string, state: "connected" | "degraded", error?: string) => void;
}

interface Platform {
  adapter: PlatformAdapter;
  deliverer: Deliverer;
  chats: ChatSessions;
}

interface Chat {
  lane: ChatLane;
  platform: Platform;
  addr: ChatAddress;
  /** Who sent the message the running turn answers (who may answer its questions). */
  userId: string;
  progress?: ProgressMessage;
  draft?: StreamDraft;
  /** Platforms that can neither edit nor show drafts (IRC) get finished paragraphs as they come. */
  feed?: ParagraphFeed;
  /** The platform's typing indicator, from the turn's start to the first token. */
  typing?: TypingIndicator;
  /** The running turn's events into the outputs above (turn-render.ts). */
  render?: ChatTurnRender;
}

const RETENTION_MS = 7 * 24 * 3600_000;

export class Gateway {
  readonly state: GatewayState;
  readonly identities: GatewayIdentities;
  private readonly platforms = new Map<string, Platform>();
  private readonly chats = new Map<string, Chat>();
  private readonly asks = new PendingAsks();
  private readonly auth: AuthPolicy;
  private sweeper: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  readonly hooks: Hooks;
  readonly cron: CronScheduler;

  /** Set by stop(): messages still arriving are taken in for the restart, not run. */
  private stopping = false;
  /** Set when stop() left running turns for the restart: nothing of theirs is settled here. */
  private abandoned = false;

  constructor(private readonly opts: GatewayOptions) {
    this.state = opts.iris.store.gatewayState;
    this.identities = opts.iris.store.gatewayIdentities;
    this.hooks = new Hooks(
      opts.hooksDir ?? join(opts.iris.profile.home.root, "hooks"),
      opts.logger.child({ component: "hooks" }),
      opts.hookTimeoutMs,
    );
    this.cron = new CronScheduler(
      opts.iris,
      opts.cwd,
      async (job, slot, text) => {
        const p = this.platforms.get(job.platform);
        if (!p) throw new Error(`cron job ${job.id}: no ${job.platform} platform is configured`);
        await p.deliverer.deliver(
          `cron:${job.id}:${slot}`,
          { platform: job.platform, chatId: job.chatId },
          text,
        );
      },
      opts.logger.child({ component: "cron" }),
      opts.cronTickMs,
    );
    const cfg = opts.config;
    const rules = opts.rules ?? {};
    this.auth = {
      allowAll: cfg.allow_all,
      trusted: new Set(opts.adapters.filter((a) => a.authenticated).map((a) => a.platform)),
      allowed: Object.fromEntries(Object.entries(rules).map(([id, r]) => [id, r.allowedUsers])),
      codeTtlMs: cfg.pairing.code_ttl_minutes * 60_000,
      maxPending: cfg.pairing.max_pending,
    };
    for (const adapter of opts.adapters) {
      const chats = new ChatSessions({
        iris: opts.iris,
        state: this.state,
        platform: adapter.platform,
        ...(rules[adapter.platform]?.formattingHint ? { hint: rules[adapter.platform]?.formattingHint } : {}),
        cwd: opts.cwd,
        idleMs: cfg.idle_session_minutes * 60_000,
        maxOpen: opts.maxOpenChats ?? 200,
        attach: (key, session) => session.subscribe((e) => this.onSessionEvent(key, session, e)),
        started: (key, sessionId, reset) =>
          this.hooks.emit(reset ? "session:reset" : "session:start", { chat: key, session: sessionId }),
      });
      const deliverer = new Deliverer(this.state, adapter, opts.logger);
      deliverer.health = (ok, err) =>
        this.platformHealth(adapter.platform, ok ? "connected" : "degraded", err);
      this.platforms.set(adapter.platform, { adapter, deliverer, chats });
    }
    opts.tools?.bind(this.toolPort());
  }

  /** Health as last reported per platform: only a change is passed on (a send does not write). */
  private readonly health = new Map<string, "connected" | "degraded">();

  private platformHealth(platform: string, state: "connected" | "degraded", error?: unknown): void {
    if ((this.health.get(platform) ?? "connected") === state) return;
    this.health.set(platform, state);
    // Registered secrets and credential-shaped text never reach the store (a token in a URL).
    this.opts.health?.(platform, state, error === undefined ? undefined : redact(errorText(error)));
  }

  /** What send_message and cronjob use: the outbox of a running platform, and the cron jobs. */
  private toolPort(): GatewayToolPort {
    return {
      config: this.opts.config,
      state: this.state,
      cronState: this.cron.state,
      platforms: () => [...this.platforms.keys()],
      targets: (platform) => this.opts.rules?.[platform]?.sendTargets ?? [],
      post: async (logicalKey, to, text) => {
        const p = this.platforms.get(to.platform);
        if (!p) throw new Error(`no ${to.platform} platform is running`);
        await p.deliverer.deliver(logicalKey, to, text);
      },
    };
  }

  /** Pairing codes for an adapter's own strangers, under the same limits as DMs. */
  private pairingPort(): PairingPort {
    return {
      request: (platform, userId, userName) =>
        this.state.issueCode(platform, userId, userName, {
          ttlMs: this.auth.codeTtlMs,
          maxPending: this.auth.maxPending,
        }),
      approvedName: (platform, userId) =>
        this.state.isApproved(platform, userId)
          ? this.state.approvedUsers().find((a) => a.platform === platform && a.userId === userId)?.userName
          : undefined,
      forget: (platform, userId) => void this.state.revoke(userId, platform),
    };
  }

  /** Connects every platform, then settles what a crash left on it. */
  async start(): Promise<void> {
    this.pruneOld();
    const { store } = this.opts.iris;
    const history = (to: ChatAddress, chatType: "dm" | "group", userId: string) =>
      chatHistory(store, this.state, this.opts.config.group_sessions, to, chatType, userId);
    for (const p of this.platforms.values()) {
      await p.adapter.start(
        (msg) => {
          this.handle(msg).catch((err) =>
            this.opts.logger.error("gateway message failed", { error: String(err) }),
          );
        },
        {
          history,
          identities: this.identities,
          pairing: this.pairingPort(),
          stopped: (reason) => {
            this.opts.logger.error("gateway platform stopped", { platform: p.adapter.platform, reason });
            this.opts.onPlatformStopped?.(p.adapter.platform, reason);
          },
          health: (state, error) => this.platformHealth(p.adapter.platform, state, error),
          post: (key, to, text) => this.toolPort().post(key, to, text),
        },
      );
      // After start: a part resent goes through the platform's live connection.
      await p.deliverer.recover();
      await this.recoverUnanswered(p);
    }
    this.hooks.emit("gateway:startup", { platforms: [...this.platforms.keys()] });
    this.cron.start();
    this.sweeper = setInterval(() => {
      for (const p of this.platforms.values()) void p.chats.sweep();
    }, 60_000);
    this.sweeper.unref();
    // A gateway runs for weeks: the dedupe and outbox tables are kept bounded while it runs too.
    this.pruner = setInterval(() => this.pruneOld(), this.opts.pruneEveryMs ?? 3600_000);
    this.pruner.unref();
  }

  /** Drops answered dedupe rows and settled outbox rows older than the retention. */
  private pruneOld(): void {
    const before = Date.now() - RETENTION_MS;
    try {
      this.state.pruneInbound(before);
      this.state.pruneOutbound(before);
    } catch (err) {
      // Busy store (another writer): the next round tries again; nothing depends on it now.
      this.opts.logger.warn("gateway tables not pruned", { error: String(err) });
    }
  }

  /**
   * Messages a crash left unanswered: their turn is continued once where nothing it did is
   * uncertain (continue-unanswered.ts); the others are told so, once, never lost silently.
   */
  private async recoverUnanswered(p: Platform): Promise<void> {
    const { store } = this.opts.iris;
    for (const [key, rows] of unansweredByChat(this.state, p.adapter.platform)) {
      let plan: ChatRecovery;
      try {
        plan = planRecovery(store, this.state, rows, () => p.chats.get(key));
      } catch (err) {
        this.opts.logger.warn("gateway: an unanswered turn could not be looked at", { error: String(err) });
        plan = { kind: "report", report: rows.map((row) => ({ row, why: "the gateway restarted" })) };
      }
      for (const { row, why } of plan.report) {
        await p.deliverer.deliver(
          `${row.platform}:${row.messageId}:lost`,
          addressOf(row),
          notAnsweredText(row, why),
        );
        this.state.finishInbound(row.platform, row.messageId, "reported");
      }
      if (plan.kind === "deliver") {
        const last = plan.answers[plan.answers.length - 1] as InboundMessage;
        await this.deliverReply(p, addressOf(last), { reply: plan.text, answers: plan.answers });
      } else if (plan.kind === "continue") {
        const last = plan.answers[plan.answers.length - 1] as InboundMessage;
        this.opts.logger.info("gateway: continuing a turn the restart cut", { chat: key });
        this.chatFor(key, p, addressOf(last), last).lane.submit({
          msg: last,
          text: "",
          continues: plan.answers,
        });
      }
    }
  }

  /**
   * Stops the gateway. `graceMs`: running turns may first finish and deliver their answers (new
   * messages are taken in but left for the restart). `abandon`: a turn still running after the
   * grace is left as a kill would leave it (nothing interrupted, its message unanswered), so the
   * restart continues it (SPEC G1); resolves with how many were left. Otherwise they are
   * interrupted, as before.
   */
  async stop(opts: { graceMs?: number; abandon?: boolean } = {}): Promise<{ abandoned: number }> {
    this.stopping = true;
    clearInterval(this.sweeper);
    clearInterval(this.pruner);
    await this.cron.stop();
    if ((opts.graceMs ?? 0) > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.settled(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, opts.graceMs);
        }),
      ]);
      clearTimeout(timer);
    }
    const running = [...this.chats.values()].filter((c) => c.lane.busy).length;
    for (const p of this.platforms.values()) await p.adapter.stop();
    if (running > 0 && opts.abandon) {
      this.abandoned = true;
      return { abandoned: running };
    }
    for (const [key, c] of this.chats) c.platform.chats.peek(key)?.interrupt();
    await this.settled();
    for (const p of this.platforms.values()) await p.chats.closeAll();
    await this.hooks.idle();
    return { abandoned: 0 };
  }

  /** Waits until no chat has a turn running or waiting (tests, shutdown). */
  async settled(): Promise<void> {
    while ([...this.chats.values()].some((c) => c.lane.busy))
      await Promise.all([...this.chats.values()].map((c) => c.lane.idle()));
  }

  get openChats(): number {
    return this.chats.size;
  }

  async handle(msg: InboundMessage): Promise<HandleOutcome> {
    const p = this.platforms.get(msg.platform);
    if (!p) throw new Error(`no adapter for platform ${msg.platform}`);
    const cfg = this.opts.config;
    const key = sessionKey(msg, cfg.group_sessions);
    if (!this.state.claimInbound({ ...msg, chatKey: key })) return "duplicate";
    const addr: ChatAddress = {
      platform: msg.platform,
      chatId: msg.chatId,
      ...(msg.threadId ? { threadId: msg.threadId } : {}),
    };
    const settle = () => this.state.finishInbound(msg.platform, msg.messageId);
    if (msg.action) {
      // A button press answers the approval it was shown under, by its request id.
      const { requestId, answer } = msg.action;
      const reply =
        this.asks.answerApproval(key, msg.userId, answer, requestId) ?? "that approval is no longer waiting";
      await p.deliverer.deliver(`${msg.platform}:${msg.messageId}:cmd`, addr, reply);
      settle();
      return "command";
    }

    const auth = authorise(msg, this.auth, this.state, this.identities);
    if (!auth.allow) {
      if (auth.borrowed)
        this.opts.logger.warn("gateway: a listed name spoke from another identity; treated as a stranger", {
          platform: msg.platform,
          name: auth.borrowed.name,
          identity: msg.userId,
          boundTo: auth.borrowed.boundTo,
        });
      if (auth.reply) await p.deliverer.deliver(`${msg.platform}:${msg.messageId}:auth`, addr, auth.reply);
      settle();
      return "refused";
    }
    const mention = filterMention(msg, p.adapter.botNames(), {
      requireMention: cfg.require_mention,
      wakeWords: cfg.wake_words,
    });
    // A room's slash command needs no mention: it is addressed to the bot by its form (SPEC G1).
    const roomCommand = !mention.addressed && findCommand(msg.text.trim().split(/\s+/)[0] ?? "", "gateway");
    if (!mention.addressed && !roomCommand) {
      settle();
      return "ignored";
    }
    const text = (mention.addressed ? mention.text : msg.text).trim();
    const [word = "", ...rest] = text.split(/\s+/);
    const command = word.startsWith("/") ? findCommand(word, "gateway") : undefined;
    if (command) {
      this.hooks.emit(`command:${command.name.slice(1)}`, {
        chat: key,
        user: msg.userId,
        args: rest.join(" "),
      });
      const reply = await command.run({
        session: p.chats.get(key),
        args: rest.join(" "),
        newSession: () => p.chats.restart(key),
        answerApproval: (answer, requestId) => this.asks.answerApproval(key, msg.userId, answer, requestId),
      });
      await p.deliverer.deliver(`${msg.platform}:${msg.messageId}:cmd`, addr, reply);
      settle();
      return "command";
    }
    if (this.asks.answerClarify(key, msg.userId, text)) {
      settle();
      return "answer";
    }
    // Stopping: the message stays taken in and unanswered; the restart tells its sender.
    if (this.stopping) return "queued";
    this.chatFor(key, p, addr, msg).lane.submit({ msg, text });
    return "queued";
  }

  private chatFor(key: string, p: Platform, addr: ChatAddress, msg: InboundMessage): Chat {
    let chat = this.chats.get(key);
    if (!chat) {
      const lane: ChatLane = new ChatLane(this.opts.config.busy_policy, {
        session: () => p.chats.get(key),
        acquire: () => p.chats.acquire(key),
        release: () => p.chats.release(key),
        beforeTurn: async (session) => {
          await runHygiene(session, this.opts.logger);
        },
        runTurn: (session, text, last, attached) => this.runTurn(key, session, text, last, attached),
        deliver: (o) => this.deliverReply(p, addr, o),
        failed: async (items, err) => {
          this.opts.logger.error("gateway turn failed", { error: String(err) });
          const last = items[items.length - 1];
          if (last)
            await p.deliverer.deliver(
              `${last.platform}:${last.messageId}:reply`,
              addr,
              `! ${errorText(err)}`,
            );
          for (const m of items) this.state.finishInbound(m.platform, m.messageId);
        },
      });
      chat = { lane, platform: p, addr, userId: msg.userId };
      this.chats.set(key, chat);
      // The lane's state goes when it has nothing left to do (per-chat state stays bounded).
      const created = chat;
      const forget = () =>
        void created.lane.idle().then(() => {
          if (created.lane.busy) forget();
          else if (this.chats.get(key) === created) this.chats.delete(key);
        });
      queueMicrotask(forget);
    }
    return chat;
  }

  private async runTurn(
    key: string,
    session: Session,
    text: string | null,
    last: InboundMessage,
    attached: readonly Attachment[] = [],
  ): Promise<{ text: string; interrupted: boolean; kept?: boolean; unsent: string[]; streamed?: boolean }> {
    const chat = this.chats.get(key);
    if (chat) {
      chat.userId = last.userId;
      chat.progress = new ProgressMessage(chat.platform.adapter, chat.addr);
      chat.render = new ChatTurnRender(chat);
      // Platforms without drafts (IRC) keep no copy of the streamed text.
      const { adapter, deliverer } = chat.platform;
      const addr = chat.addr;
      chat.typing = new TypingIndicator(adapter, addr);
      chat.typing.start();
      if (adapter.draft) {
        chat.draft = new StreamDraft(adapter, addr);
        // The web chat's own typing indicator: the draft says so before the model is even called.
        chat.draft.status("✍ writing…");
      } else if (!adapter.edit)
        chat.feed = new ParagraphFeed(
          async ({ round, index }, part) => {
            const digest = createHash("sha256").update(part).digest("hex").slice(0, 12);
            await deliverer.deliver(
              `${last.platform}:${last.messageId}:reply:r${round}:p${index}:${digest}`,
              addr,
              part,
            );
          },
          // A continued turn (no new text) counts its rounds on from those the store kept.
          text === null ? roundsStored(this.opts.iris.store, session.id) : 0,
        );
    }
    this.hooks.emit("agent:start", { chat: key, session: session.id, user: last.userId });
    let replied = false;
    try {
      const result = await session.send(text === null ? null : await withImages(text, attached));
      this.hooks.emit("agent:end", {
        chat: key,
        session: session.id,
        reason: result.reason,
        rounds: result.rounds,
      });
      const interrupted = result.reason === "user_cancelled";
      // An interrupted answer keeps what was shown, marked interrupted (L7): it is delivered too.
      const kept = interrupted ? result.kept : undefined;
      const answer = kept ?? result.text;
      replied = !interrupted || kept !== undefined;
      const rest = chat?.feed ? await chat.feed.rest(answer) : { text: answer, streamed: false };
      return {
        text: rest.text,
        interrupted,
        ...(kept ? { kept: true } : {}),
        unsent: result.unsent.map((m) => textOf(m.content)),
        ...(rest.streamed ? { streamed: true } : {}),
      };
    } finally {
      chat?.typing?.stop();
      if (chat) delete chat.typing;
      if (chat) delete chat.render;
      this.asks.clear(key);
      if (chat) delete chat.feed;
      chat?.draft?.done(replied);
      if (chat) delete chat.draft;
      await chat?.progress?.done();
      if (chat) delete chat.progress;
    }
  }

  private async deliverReply(
    p: Platform,
    addr: ChatAddress,
    o: TurnOutcome & { reply: string },
  ): Promise<void> {
    // Left for the restart: what ends here after stop() is not this process's to settle.
    if (this.abandoned) return;
    const last = o.answers[o.answers.length - 1];
    // Everything went out paragraph by paragraph already: nothing is left to send.
    const done = o.streamed === true && o.reply.trim() === "";
    if (last && !done) await p.deliverer.deliver(`${last.platform}:${last.messageId}:reply`, addr, o.reply);
    for (const m of o.answers) this.state.finishInbound(m.platform, m.messageId);
  }

  private onSessionEvent(key: string, session: Session, e: HostEvent): void {
    const chat = this.chats.get(key);
    if (e.name === "session_split") {
      this.state.repointChats(e.payload.from, e.payload.to);
      return;
    }
    if (!chat) return;
    const post = (logicalKey: string, text: string, buttons?: readonly ActionButton[]) =>
      void chat.platform.deliverer
        .deliver(logicalKey, chat.addr, text, buttons ? { buttons } : {})
        .catch((err) => this.opts.logger.warn("gateway ask failed", { error: String(err) }));
    // Request ids count per session from 1: the task id makes the outbox key unique across
    // chats and restarts (a reused key would be taken as sent already and never shown).
    const platform = chat.platform.adapter.platform;
    if (e.name === "approval_requested") {
      const r = e.payload.request;
      this.asks.ask(key, { kind: "approval", requestId: e.payload.requestId, userId: chat.userId, session });
      post(
        `${platform}:${e.taskId}:${e.payload.requestId}:ask`,
        // With several waiting, the reply names which (each call is asked and answered by its id).
        `Approval needed: ${r.tool} wants to run \`${r.command}\` (${r.reason}). Reply /approve, /approve session, or /deny${this.asks.has(key, "approval", 2) ? ` followed by ${e.payload.requestId} (several wait)` : ""}.`,
        approvalButtons(e.payload.requestId),
      );
    } else if (e.name === "clarify_requested") {
      this.asks.ask(key, { kind: "clarify", requestId: e.payload.requestId, userId: chat.userId, session });
      const choices = e.payload.choices?.length ? ` (${e.payload.choices.join(" / ")})` : "";
      post(`${platform}:${e.taskId}:${e.payload.requestId}:ask`, `Question: ${e.payload.question}${choices}`);
    } else chat.render?.apply(e);
  }
}

/** The model calls of the session's last turn that the store kept (assistant messages after its last user message). */
function roundsStored(store: Store, sessionId: string): number {
  const path = store.activePath(sessionId);
  const lastUser = path.findLastIndex((n) => n.message?.role === "user");
  return path.slice(lastUser + 1).filter((n) => n.message?.role === "assistant").length;
}

function approvalButtons(requestId: string): ActionButton[] {
  return [
    { label: "Approve", action: { requestId, answer: "once" } },
    { label: "Approve for this session", action: { requestId, answer: "session" } },
    { label: "Deny", action: { requestId, answer: "deny" } },
  ];
}

function addressOf(m: { platform: string; chatId: string; threadId?: string | null }): ChatAddress {
  return { platform: m.platform, chatId: m.chatId, ...(m.threadId ? { threadId: m.threadId } : {}) };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
