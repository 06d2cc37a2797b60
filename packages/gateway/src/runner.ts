// The gateway runner (SPEC G1–G4, U3): platform event → dedupe → authorisation → mention filter
// → session key → chat command, clarify answer, or the chat's lane (hygiene → agent per message →
// deliver through the outbox). The stages are small modules in pipeline/; this file wires them.

import { join } from "node:path";
import { findCommand, type HostEvent, type Session, SessionBusyError } from "@iris/host";
import { redact, textOf } from "@iris/llm";
import { PendingAsks } from "./asks.js";
import { withImages } from "./attachments.js";
import { chatHistory } from "./chat-history.js";
import { ChatSessions } from "./chats.js";
import { CronScheduler } from "./cron.js";
import { CronDeliveries } from "./cron-deliveries.js";
import { type Chat, errorText, type Platform } from "./gateway-chat.js";
import type { GatewayOptions, HandleOutcome } from "./gateway-options.js";
import { pairingPort, toolPort } from "./gateway-ports.js";
import { Hooks } from "./hooks.js";
import { ChatLane, type TurnOutcome } from "./lane.js";
import type { Attachment, ChatAddress, InboundMessage } from "./message.js";
import { type AuthPolicy, authorise } from "./pipeline/authorise.js";
import { Deliverer } from "./pipeline/deliver.js";
import { runHygiene } from "./pipeline/hygiene.js";
import { filterMention } from "./pipeline/mention.js";
import { sessionKey } from "./pipeline/session-key.js";
import { recoverUnanswered } from "./recover-platform.js";
import { postAsk } from "./session-asks.js";
import type { GatewayIdentities, GatewayState } from "./state/index.js";
import type { GatewayToolPort } from "./tools.js";
import { closeTurnOutputs, openTurnOutputs } from "./turn-outputs.js";

export type { GatewayOptions, HandleOutcome } from "./gateway-options.js";

const RETENTION_MS = 7 * 24 * 3600_000;
/** How often a turn waiting for another gateway process's turn in its session asks again. */
const BUSY_RETRY_MS = 250;

export class Gateway {
  readonly state: GatewayState;
  readonly identities: GatewayIdentities;
  private readonly platforms = new Map<string, Platform>();
  private readonly chats = new Map<string, Chat>();
  private readonly asks = new PendingAsks();
  private readonly auth: AuthPolicy;
  private readonly toolPort: GatewayToolPort;
  private sweeper: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  readonly hooks: Hooks;
  readonly cron: CronScheduler;
  /** A Postgres profile's cron answers from the workers (instead of running cron here). */
  private readonly cronDeliveries: CronDeliveries | undefined;

  /** Set by stop(): messages still arriving are taken in for the restart, not run. */
  private stopping = false;
  /** Set when stop() left running turns for the restart: nothing of theirs is settled here. */
  private abandoned = false;

  constructor(private readonly opts: GatewayOptions) {
    this.state = opts.tables.state;
    this.identities = opts.tables.identities;
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
    this.cronDeliveries = opts.deliveries
      ? new CronDeliveries(opts.deliveries, opts.logger.child({ component: "cron" }))
      : undefined;
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
        toolsets: (chatId) => {
          const limits = rules[adapter.platform]?.toolsets;
          return limits && Object.hasOwn(limits, chatId) ? limits[chatId] : undefined;
        },
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
    // What send_message and cronjob use: the outbox of a running platform, and the cron jobs.
    this.toolPort = toolPort(opts.config, this.state, this.cron, this.platforms, opts.rules, (id) =>
      this.answering(id),
    );
    opts.tools?.bind(this.toolPort);
  }

  /** The chat whose turn runs in session `sessionId` now (send_file's default target). */
  private answering(sessionId: string): ChatAddress | undefined {
    for (const [key, chat] of this.chats)
      if (chat.lane.busy && chat.platform.chats.peek(key)?.id === sessionId) return chat.addr;
    return undefined;
  }

  /** Health as last reported per platform: only a change is passed on (a send does not write). */
  private readonly health = new Map<string, "connected" | "degraded">();

  private platformHealth(platform: string, state: "connected" | "degraded", error?: unknown): void {
    if ((this.health.get(platform) ?? "connected") === state) return;
    this.health.set(platform, state);
    // Registered secrets and credential-shaped text never reach the store (a token in a URL).
    this.opts.health?.(platform, state, error === undefined ? undefined : redact(errorText(error)));
  }

  /** Connects every platform, then settles what a crash left on it. */
  async start(): Promise<void> {
    await this.pruneOld();
    const stored = (sessionId: string) => this.opts.iris.storedHistory(sessionId);
    const history = (to: ChatAddress, chatType: "dm" | "group", userId: string) =>
      chatHistory(stored, this.state, this.opts.config.group_sessions, to, chatType, userId);
    for (const p of this.platforms.values()) {
      await p.adapter.start(
        (msg) =>
          this.handle(msg).catch((err) => {
            this.opts.logger.error("gateway message failed", { error: String(err) });
            return undefined;
          }),
        {
          history,
          identities: this.identities,
          pairing: pairingPort(this.state, this.auth),
          stopped: (reason) => {
            this.opts.logger.error("gateway platform stopped", { platform: p.adapter.platform, reason });
            this.opts.onPlatformStopped?.(p.adapter.platform, reason);
          },
          health: (state, error) => this.platformHealth(p.adapter.platform, state, error),
          warn: (line) => this.opts.onWarning?.(p.adapter.platform, line),
          post: (key, to, text) => this.toolPort.post(key, to, text),
        },
      );
      // After start: a part resent goes through the platform's live connection.
      await p.deliverer.recover();
      await recoverUnanswered(
        {
          state: this.state,
          logger: this.opts.logger,
          deliverReply: (pl, addr, o) => this.deliverReply(pl, addr, o),
          chatFor: (key, pl, addr, msg) => this.chatFor(key, pl, addr, msg),
        },
        p,
      );
    }
    this.hooks.emit("gateway:startup", { platforms: [...this.platforms.keys()] });
    if (this.cronDeliveries) await this.cronDeliveries.start(this.platforms);
    else this.cron.start();
    this.sweeper = setInterval(() => {
      for (const p of this.platforms.values()) void p.chats.sweep();
    }, 60_000);
    this.sweeper.unref();
    // A gateway runs for weeks: the dedupe and outbox tables are kept bounded while it runs too.
    this.pruner = setInterval(() => void this.pruneOld(), this.opts.pruneEveryMs ?? 3600_000);
    this.pruner.unref();
  }

  /** Drops answered dedupe rows and settled outbox rows older than the retention. */
  private async pruneOld(): Promise<void> {
    const before = Date.now() - RETENTION_MS;
    try {
      await this.state.pruneInbound(before);
      await this.state.pruneOutbound(before);
    } catch (err) {
      // Busy store (another writer): the next round tries again; nothing depends on it now.
      this.opts.logger.warn("gateway tables not pruned", { error: String(err) });
    }
  }

  /**
   * Stops the gateway. `graceMs`: running turns may first finish (new messages are taken in for the
   * restart). `abandon`: a turn still running then is left as a kill leaves it, so the restart
   * continues it (SPEC G1); resolves with how many were left. Otherwise they are interrupted.
   */
  async stop(opts: { graceMs?: number; abandon?: boolean } = {}): Promise<{ abandoned: number }> {
    this.stopping = true;
    clearInterval(this.sweeper);
    clearInterval(this.pruner);
    await this.cron.stop();
    await this.cronDeliveries?.stop();
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
    if (!(await this.state.claimInbound({ ...msg, chatKey: key }))) return "duplicate";
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
      await settle();
      return "command";
    }

    const auth = await authorise(msg, this.auth, this.state, this.identities);
    if (!auth.allow) {
      if (auth.borrowed)
        this.opts.logger.warn("gateway: a listed name spoke from another identity; treated as a stranger", {
          platform: msg.platform,
          name: auth.borrowed.name,
          identity: msg.userId,
          boundTo: auth.borrowed.boundTo,
        });
      if (auth.reply) await p.deliverer.deliver(`${msg.platform}:${msg.messageId}:auth`, addr, auth.reply);
      await settle();
      return "refused";
    }
    const mention = filterMention(msg, p.adapter.botNames(), {
      requireMention: cfg.require_mention,
      wakeWords: cfg.wake_words,
    });
    // A room's slash command needs no mention: it is addressed to the bot by its form (SPEC G1).
    const roomCommand =
      !mention.addressed && !msg.promptOnly && findCommand(msg.text.trim().split(/\s+/)[0] ?? "", "gateway");
    if (!mention.addressed && !roomCommand) {
      await settle();
      return "ignored";
    }
    const text = (mention.addressed ? mention.text : msg.text).trim();
    const [word = "", ...rest] = text.split(/\s+/);
    const command = word.startsWith("/") && !msg.promptOnly ? findCommand(word, "gateway") : undefined;
    if (command) {
      this.hooks.emit(`command:${command.name.slice(1)}`, {
        chat: key,
        user: msg.userId,
        args: rest.join(" "),
      });
      const reply = await command.run({
        session: await p.chats.get(key),
        args: rest.join(" "),
        newSession: () => p.chats.restart(key),
        answerApproval: (answer, requestId) => this.asks.answerApproval(key, msg.userId, answer, requestId),
      });
      await p.deliverer.deliver(`${msg.platform}:${msg.messageId}:cmd`, addr, reply);
      await settle();
      return "command";
    }
    if (!msg.promptOnly && this.asks.answerClarify(key, msg.userId, text)) {
      await settle();
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
        session: () => p.chats.peek(key),
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
          for (const m of items) await this.state.finishInbound(m.platform, m.messageId);
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
    if (chat) await openTurnOutputs(chat, last, text, session);
    this.hooks.emit("agent:start", { chat: key, session: session.id, user: last.userId });
    let replied = false;
    try {
      const result = await this.sendWhenFree(
        session,
        text === null ? null : await withImages(text, attached),
      );
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
      this.asks.clear(key);
      if (chat) await closeTurnOutputs(chat, replied);
    }
  }

  /**
   * Sends once the session is free: on a store several gateway processes share, a turn of the
   * same session may run in another one (a webhook platform's chat whose messages came to two
   * replicas); this turn waits for it, as the chat's lane waits within one process.
   */
  private async sendWhenFree(session: Session, input: Parameters<Session["send"]>[0]) {
    for (let waited = false; ; waited = true) {
      try {
        return await session.send(input);
      } catch (err) {
        // Within one process the lane keeps turns apart: a busy session there is a fault, said so.
        if (!(err instanceof SessionBusyError) || !this.opts.tables.tryLock || this.stopping) throw err;
        if (!waited)
          this.opts.logger.info("gateway: waiting for the turn another gateway process runs in the session", {
            session: session.id,
          });
        await new Promise((r) => setTimeout(r, BUSY_RETRY_MS));
      }
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
    for (const m of o.answers) await this.state.finishInbound(m.platform, m.messageId);
  }

  private onSessionEvent(key: string, session: Session, e: HostEvent): void {
    const chat = this.chats.get(key);
    if (e.name === "session_split") {
      this.state.repointChats(e.payload.from, e.payload.to).catch((err: unknown) => {
        this.opts.logger.error("chats not moved to the split session", { error: errorText(err) });
      });
      return;
    }
    if (!chat) return;
    if (!postAsk(this.asks, key, chat, session, e, this.opts.logger)) chat.render?.apply(e);
  }
}
