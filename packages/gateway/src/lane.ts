// One chat's turns (SPEC G4, H2): one turn at a time per chat. A message arriving while a turn
// runs interrupts it and is answered next, waits for it, or is injected into it, per
// `gateway.busy_policy`. Messages that waited are merged into one user turn with speaker names.
import type { Session } from "@iris/host";
import type { Attachment, InboundMessage } from "./message.js";
import { mergeSpoken } from "./pipeline/merge.js";

export type BusyPolicy = "interrupt" | "queue" | "steer";

export interface LaneItem {
  msg: InboundMessage;
  /** The text after the mention filter. */
  text: string;
  /**
   * A turn a crash cut, continued from its stored history (no new user message); these are the
   * messages it answers. It interrupts nothing and is never injected.
   */
  continues?: InboundMessage[];
}

export interface TurnOutcome {
  /** The reply to deliver; undefined when the turn was interrupted for a newer message. */
  reply?: string;
  /** Every inbound message this reply answers (interrupted and steered ones included). */
  answers: InboundMessage[];
  /** Part of the reply went out while it was written (paragraph feed); `reply` is the rest. */
  streamed?: boolean;
}

export interface LaneHooks {
  /** The chat's session now (to inject into or interrupt a running turn). */
  /** The chat's session if it is open now (a turn runs in it while the lane is busy). */
  session(): Session | undefined;
  /** The chat's session, held open for a turn until release(). */
  acquire(): Promise<Session>;
  release(): void;
  /** Runs before the agent is created (hygiene). */
  beforeTurn(session: Session): Promise<void>;
  runTurn(
    session: Session,
    /** null: continue the stored history as it stands (a turn a restart cut). */
    text: string | null,
    last: InboundMessage,
    /** Every attachment of the merged messages (images go to the model). */
    attached?: readonly Attachment[],
  ): Promise<{
    text: string;
    interrupted: boolean;
    /** The interrupted answer's shown text is `text`, kept and marked (L7): it is delivered. */
    kept?: boolean;
    /** Injected texts the turn ended without sending (the Agent knows exactly). */
    unsent: string[];
    streamed?: boolean;
  }>;
  deliver(outcome: TurnOutcome & { reply: string }): Promise<void>;
  /** The turn failed outright (not a model error the agent reported): say so and settle. */
  failed(items: InboundMessage[], error: unknown): Promise<void>;
}

export class ChatLane {
  private pending: LaneItem[] = [];
  private steered: LaneItem[] = [];
  private carried: InboundMessage[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly policy: BusyPolicy,
    private readonly hooks: LaneHooks,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when this lane has nothing left to run. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  submit(item: LaneItem): void {
    if (!this.running) {
      this.pending.push(item);
      this.running = this.drain().finally(() => {
        this.running = undefined;
      });
      return;
    }
    if (item.continues) {
      this.pending.push(item);
      return;
    }
    const session = this.hooks.session();
    if (!session) {
      this.pending.push(item);
      return;
    }
    if (this.policy === "steer") {
      const group = item.msg.chatType === "group";
      if (session.inject(mergeSpoken([{ userName: item.msg.userName, text: item.text }], group))) {
        this.steered.push(item);
        return;
      }
    }
    this.pending.push(item);
    if (this.policy === "interrupt") session.interrupt();
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      const last = batch[batch.length - 1] as LaneItem;
      const group = last.msg.chatType === "group";
      const spoken = batch.filter((b) => !b.continues);
      const text =
        spoken.length === 0
          ? null
          : mergeSpoken(
              spoken.map((b) => ({ userName: b.msg.userName, text: b.text })),
              group,
            );
      const answers = [...this.carried.splice(0), ...batch.flatMap((b) => b.continues ?? [b.msg])];
      let held = false;
      try {
        const session = await this.hooks.acquire();
        held = true;
        await this.hooks.beforeTurn(session);
        const attached = batch.flatMap((b) => b.msg.attachments);
        const turn = await this.hooks.runTurn(session, text, last.msg, attached);
        // Steered messages the turn took in are answered by it; the others get a turn of their own.
        const unsent = new Set(turn.unsent);
        for (const item of this.steered.splice(0)) {
          const said = mergeSpoken([{ userName: item.msg.userName, text: item.text }], group);
          if (unsent.has(said)) this.pending.push(item);
          else answers.push(item.msg);
        }
        // Interrupted for a newer message before anything was shown: that message's answer
        // covers this one too. What was shown stays, marked interrupted, as this one's answer.
        if (turn.interrupted && !turn.kept && this.pending.length > 0) {
          this.carried.push(...answers);
          continue;
        }
        await this.hooks.deliver({ reply: turn.text, answers, ...(turn.streamed ? { streamed: true } : {}) });
      } catch (err) {
        await this.hooks
          .failed([...answers, ...this.steered.splice(0).map((i) => i.msg)], err)
          .catch(() => {});
      } finally {
        if (held) this.hooks.release();
      }
    }
  }
}
