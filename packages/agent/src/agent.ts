// The Agent: made per message from a resolved route, a session and the frozen prompt (cheap to
// build; everything expensive lives in what it is given). `run` returns exactly one termination.
import { sanitizeHistory, type UserMessage } from "@iris/llm";
import { AgentEvents } from "./events.js";
import type { ConversationLog, FrontEnd, ModelClient, ToolBox } from "./ports.js";
import { ConvergenceDetector } from "./turn/convergence.js";
import type { TurnEnv } from "./turn/env.js";
import { type BudgetConfig, RoundGuards } from "./turn/guards.js";
import { runTurn } from "./turn/loop.js";
import { storeErrorResult } from "./turn/store-error.js";
import type { TurnResult, TurnState } from "./turn/types.js";

export interface AgentOptions {
  log: ConversationLog;
  model: ModelClient;
  tools: ToolBox;
  systemPrompt: string;
  cwd: string;
  budgets?: Partial<BudgetConfig>;
  frontEnd?: FrontEnd;
  events?: AgentEvents;
  maxOutputTokens?: number;
  /** Send-time shaping for a route; defaults to the sanitation pass alone. */
  shape?: TurnEnv["shape"];
  /** What to ask of each route's reasoning; default: nothing. */
  reasoningFor?: TurnEnv["reasoningFor"];
  beforeModelCall?: TurnEnv["beforeModelCall"];
  onContextOverflow?: TurnEnv["onContextOverflow"];
  /**
   * The frozen prompt as of now, read before every model call: a compression inside the turn
   * splits the session and rebuilds the prompt (SPEC S2). Default: `systemPrompt`.
   */
  currentSystemPrompt?: () => string;
  now?: () => number;
  /** Names the turn's task (the host tags its events with it); default a fresh `task_…` id. */
  newTaskId?: () => string;
}

let taskCounter = 0;

/** A task id unique in this process: `task_<time>_<counter>`. */
export function newTaskId(now: () => number = Date.now): string {
  return `task_${now().toString(36)}_${(++taskCounter).toString(36)}`;
}

export class Agent {
  readonly events: AgentEvents;
  private current: TurnState | undefined;
  private unsent: UserMessage[] = [];

  constructor(private readonly opts: AgentOptions) {
    this.events = opts.events ?? new AgentEvents();
  }

  /**
   * One turn. `null` continues the history as it stands, without a new user message: the API
   * server does this after a client answered the calls of a `client_tool_calls` turn.
   */
  async run(input: string | UserMessage | null, opts: { signal?: AbortSignal } = {}): Promise<TurnResult> {
    const message: UserMessage | undefined =
      typeof input === "string" ? { role: "user", content: input } : (input ?? undefined);
    try {
      return await this.turn(message, opts.signal ?? new AbortController().signal);
    } catch (err) {
      // Tools and model calls seal their own errors; what escapes is the store failing (disk
      // full, a locked or corrupt file). The turn ends with a reason, never an exception.
      return storeErrorResult(this.current, err, this.events);
    } finally {
      // Lines typed during the turn that no round took are handed back, never dropped.
      if (this.current?.pendingUser.length) this.unsent.push(...this.current.pendingUser);
      this.current = undefined;
    }
  }

  private async turn(message: UserMessage | undefined, signal: AbortSignal): Promise<TurnResult> {
    const now = this.opts.now ?? Date.now;
    const events = this.events;
    const fixedPrompt = this.opts.systemPrompt;
    const currentPrompt = this.opts.currentSystemPrompt;
    // Read before the turn starts: the guards check them synchronously every round.
    const sessionCostUsd = await this.opts.log.sessionCostUsd();
    const sessionActiveMs = (await this.opts.log.sessionActiveMs?.()) ?? 0;
    const env: TurnEnv = {
      log: this.opts.log,
      model: this.opts.model,
      tools: this.opts.tools,
      events,
      guards: new RoundGuards(
        {
          maxRounds: 90,
          sessionCostUsd,
          sessionActiveMs,
          ...this.opts.budgets,
        },
        events,
        this.opts.log.sessionId,
      ),
      convergence: new ConvergenceDetector(),
      frontEnd: this.opts.frontEnd ?? {},
      get systemPrompt() {
        return currentPrompt ? currentPrompt() : fixedPrompt;
      },
      cwd: this.opts.cwd,
      ...(this.opts.maxOutputTokens ? { maxOutputTokens: this.opts.maxOutputTokens } : {}),
      shape:
        this.opts.shape ??
        ((messages) => {
          const { messages: out, removed } = sanitizeHistory(messages);
          for (const r of removed)
            events.emit("status", { level: "warn", message: `history repair before sending: ${r}` });
          return out;
        }),
      ...(this.opts.beforeModelCall ? { beforeModelCall: this.opts.beforeModelCall } : {}),
      ...(this.opts.reasoningFor ? { reasoningFor: this.opts.reasoningFor } : {}),
      ...(this.opts.onContextOverflow ? { onContextOverflow: this.opts.onContextOverflow } : {}),
      now,
      newTaskId: this.opts.newTaskId ?? (() => newTaskId(now)),
    };
    return runTurn(env, message, signal, (s) => {
      this.current = s;
    });
  }

  /**
   * Mid-turn messages the turn ended without sending (no tool round came after them). The front
   * end sends them as the next turn, so typed text is never lost.
   */
  takeUnsent(): UserMessage[] {
    return this.unsent.splice(0);
  }

  /** A user message that arrived mid-turn; it is sent after the current round's results (L9). */
  inject(message: UserMessage): boolean {
    if (!this.current || this.current.termination) return false;
    this.current.pendingUser.push(message);
    return true;
  }
}
