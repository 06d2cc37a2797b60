// The parts one Session is made of, wired once (ARCHITECTURE.md "Process scope and session
// scope"): its log and row, frozen prompt, model clients, event tagging, conversation memory,
// subagent slots and its context control. Session (the front-end API), the turn runner and the
// per-turn Agent assembly all work on these; none of it is a front end's to touch.
import { AgentEvents, newTaskId, storedHistory, usageRowOf } from "@iris/agent";
import type { AssistantMessage, Message } from "@iris/llm";
import type { SessionRow } from "@iris/store";
import { ContextControl } from "./context-control.js";
import { ChildSlots } from "./delegate.js";
import { FrozenPrompt } from "./session-frozen-prompt.js";
import { SessionMemory } from "./session-memory.js";
import { SessionModels } from "./session-models.js";
import type { SessionOptions } from "./session-options.js";
import { SessionPrompts } from "./session-prompts.js";
import { SessionRecord } from "./session-record.js";
import { resumeStored } from "./session-resume.js";
import { SessionTagging } from "./session-tagging.js";
import { promptWorkspaceOf } from "./workspace-setup.js";

export class SessionParts {
  /** Raw agent events of this session's turns (what the CLI renders). */
  readonly events = new AgentEvents();
  readonly tags: SessionTagging;
  /** Questions asked through events, waiting for Session.answer(). */
  readonly prompts = new SessionPrompts();
  /** Its row and log: state.db's, memory or JSONL (session-record.ts). */
  readonly record: SessionRecord;
  readonly prompt: FrozenPrompt;
  readonly models: SessionModels;
  readonly memory = new SessionMemory();
  /** Subagents running now for this session (delegation.max_concurrent_children). */
  readonly childSlots: ChildSlots;
  private contextCtl: ContextControl | undefined;

  constructor(readonly opts: SessionOptions) {
    this.record = new SessionRecord(opts.store, opts.source, opts.cwd);
    this.tags = new SessionTagging(() => this.record.started?.id ?? "", opts.parent.events);
    this.tags.follow(this.events);
    this.childSlots = new ChildSlots(opts.profile.config.delegation.max_concurrent_children);
    this.models = new SessionModels(
      {
        profile: opts.profile,
        parent: opts.parent,
        events: this.events,
        ...(opts.route ? { route: opts.route } : {}),
        onRouteChange: (rt) => this.context.routeChanged(rt),
      },
      opts.runtime,
    );
    this.prompt = new FrozenPrompt({
      profile: opts.profile,
      cwd: opts.cwd,
      source: opts.source,
      tools: opts.tools,
      runtime: () => this.models.runtime,
      workspace: () => promptWorkspaceOf(opts.workspace),
      ...(opts.promptEdits ? { promptEdits: opts.promptEdits } : {}),
      ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
    });
  }

  /** Agent-layer compression, `/context` and the H7 switch check (SPEC C1, C4, M3, H7). */
  get context(): ContextControl {
    this.contextCtl ??= new ContextControl({
      profile: this.opts.profile,
      store: this.opts.store,
      events: this.events,
      cwd: this.opts.cwd,
      runtime: () => this.models.runtime,
      session: () => this.record.row,
      detached: () => this.record.detached !== undefined,
      workspace: () => this.opts.workspace.description,
      adopt: async (id) => {
        const from = this.record.started?.id ?? "";
        // S2: the frozen prompt is rebuilt after a compression; the child starts with it.
        await this.record.adopt(id, this.prompt.build());
        // A front end re-points its own map (chat → session) on this event.
        this.tags.emit("session_split", { from, to: id }, { taskId: this.tags.taskId });
      },
    });
    return this.contextCtl;
  }

  /** A new conversation in the log chosen at open (Session.startSession). */
  async start(instructions?: string): Promise<SessionRow> {
    const choice = this.opts.log ?? { kind: "store" };
    if (choice.kind === "memory") return this.startInMemory(choice.history ?? [], instructions);
    this.prompt.reset(instructions, true); // a new session reads skills and menu afresh (S2)
    this.memory.renew();
    if (choice.kind === "jsonl") {
      const log = this.record.openJsonl(choice.path, () => this.prompt.build(), this.models.runtime);
      this.memory.renew(await log.history());
      return this.record.row;
    }
    return this.record.createInStore(this.prompt.build(), this.models.runtime);
  }

  /** A conversation held only in memory (Session.startInMemory). */
  startInMemory(history: readonly Message[], instructions?: string): SessionRow {
    this.prompt.reset(instructions, false);
    this.memory.renew(history);
    const { sharedPrompts } = this.opts.parent;
    const prompt = sharedPrompts ? this.prompt.buildShared(sharedPrompts) : this.prompt.build();
    return this.record.openInMemory(history, prompt, this.models.runtime);
  }

  /** A stored conversation continued with its frozen prompt as stored (Session.resumeSession). */
  async resume(id: string, answers: readonly Message[]): Promise<SessionRow | undefined> {
    const resumed = await resumeStored(this.opts.store, this.opts.parent.turns, id, answers);
    if (!resumed) return undefined;
    const { row } = resumed;
    this.record.resumed(row);
    this.prompt.reset(undefined, false);
    this.memory.renew(await storedHistory(this.opts.store, row.id));
    this.memory.repairPending = resumed.repaired === undefined;
    this.memory.repairNotices = resumed.repaired ?? [];
    return row;
  }

  /** The route changed under the context control (a switch: thresholds follow it, SPEC M2). */
  routeSwitched(): void {
    this.contextCtl?.routeChanged(undefined);
  }

  /** A call made outside a turn's loop (the judge) is recorded like every other (F3). */
  recordAuxiliaryCall(message: AssistantMessage, costUsd: number, latencyMs: number): Promise<void> {
    const row = usageRowOf(this.tags.taskId || newTaskId(), message, costUsd, latencyMs);
    // Straight to the store: logForTurn() would load the whole session for one row.
    return this.record.recordUsage(row);
  }

  /** The prompt the model is sent: the frozen one, then the ephemeral one (never stored). */
  systemPrompt(): string {
    const frozen = this.record.started?.systemPrompt ?? "";
    const extra = this.opts.ephemeralSystemPrompt;
    return extra ? `${frozen}\n\n${extra}` : frozen;
  }
}
