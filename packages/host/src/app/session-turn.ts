// One turn at a time per session: send() takes the session's turn lease (across processes: a
// second writer gets SessionBusyError), makes the turn's Agent and runs it; inject() and
// interrupt() reach the turn running now; stop() ends it for close().
import { type Agent, newTaskId } from "@iris/agent";
import type { UserMessage } from "@iris/llm";
import { SwitchablePolicy } from "./approval-modes.js";
import { imagesForRoute } from "./describe-image.js";
import type { SendOptions, SendResult } from "./session-options.js";
import type { SessionParts } from "./session-parts.js";
import { repairNow } from "./session-resume.js";
import { newTurnAgent } from "./session-turn-agent.js";
import { type HeldTurn, SessionBusyError } from "./session-turn-lock.js";
import { settledWithin } from "./settled-within.js";

/** How long stop() waits for an aborted turn to finish writing. */
const STOP_TURN_WAIT_MS = 10_000;

export class SessionTurn {
  /** The turn running now; its agent is made once the session's turn lease is held. */
  private running: { agent?: Agent; controller: AbortController; done?: Promise<unknown> } | undefined;

  constructor(
    private readonly parts: SessionParts,
    private readonly isClosed: () => boolean,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  async send(input: string | UserMessage | null, opts: SendOptions): Promise<SendResult> {
    if (this.isClosed()) throw new Error("the session is closed");
    const { parts } = this;
    if (this.running)
      throw new SessionBusyError(
        "a turn is already running in this session; use inject()",
        parts.record.started?.id ?? "",
      );
    // Marked running before the first await, so a second send() is refused at once.
    const controller = new AbortController();
    const running: NonNullable<SessionTurn["running"]> = { controller };
    this.running = running;
    let held: HeldTurn | undefined;
    try {
      held = await this.takeLease();
      const { memory, record, opts: o } = parts;
      if (memory.repairPending) memory.repairNotices.push(...(await repairNow(o.store, record.row.id)));
      memory.repairPending = false;
      const onAbort = () => controller.abort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      const taskId = newTaskId();
      if (this.isClosed()) throw new Error("the session is closed");
      const frontEnd = parts.prompts.turnFrontEnd(
        opts.frontEnd ?? {},
        opts.asks ?? "events",
        (n, p, id) => parts.tags.emit(n, p, id),
        () => taskId,
      );
      const agent = await newTurnAgent(parts, frontEnd, () => taskId, opts.clientTools);
      running.agent = agent;
      parts.tags.taskId = taskId;
      try {
        await o.workspace.connect?.(); // down: WorkspaceUnavailable; then images fitted to the route
        const ready = imagesForRoute(input, parts.models.route(), o, controller.signal, (m, cost, ms) =>
          parts.recordAuxiliaryCall(m, cost, ms),
        );
        const done = ready.then((i) => agent.run(i, { signal: controller.signal }));
        running.done = done;
        const result = await done;
        return { ...result, unsent: agent.takeUnsent() };
      } finally {
        opts.signal?.removeEventListener("abort", onAbort);
        if (o.tools.policy instanceof SwitchablePolicy) o.tools.policy.turnEnded();
        // A task's `cd` ends with the task; the session's processes live on until close().
        o.workspace.cwds.clear(taskId);
        parts.prompts.cancelTask(taskId);
      }
    } finally {
      this.running = undefined;
      await held?.release();
    }
  }

  /** The session's turn lease (a detached log is this process's alone: no lease). */
  private async takeLease(): Promise<HeldTurn | undefined> {
    const { record, opts } = this.parts;
    if (record.detached) return undefined;
    return opts.parent.turns.take(opts.store, record.row.id);
  }

  /** A message that arrives while a turn runs: sent after the current round (SPEC L9). */
  inject(text: string): boolean {
    return this.running?.agent?.inject({ role: "user", content: text }) ?? false;
  }

  /** Stops the running turn (the Agent ends it with reason `interrupted`). */
  interrupt(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    return true;
  }

  /** Aborts the running turn and waits (bounded) until it has written its last rows (an
   * interrupted round, usage), so the store is not closed under it. */
  async stop(): Promise<void> {
    const turn = this.running;
    turn?.controller.abort();
    if (turn?.done) await settledWithin(turn.done, STOP_TURN_WAIT_MS);
  }
}
