// Agent-layer compression in the running agent (SPEC C1, C3, C4, M2, S2, U1, U2). Plugs into the
// turn through `beforeModelCall`: at the start of every round (all tool results of the previous
// round appended) the prompt size is checked against the trigger of the route the call goes to;
// over it, the engine runs and, on success, a summary splits the session and the turn goes on in
// the child with a rebuilt frozen prompt; pruning alone stays in the session (a new branch). On
// failure the history stays whole and the user is told why.
import {
  type AgentEvents,
  type CompressResult,
  type ContextBudget,
  type ContextEngine,
  createContextEngine,
  estimateMessagesTokens,
  failureWarning,
  findProjectContext,
  llmSummarizer,
  type ModelClient,
  newestUserIndex,
  newTaskId,
  type Summarizer,
  usageRowOf,
} from "@iris/agent";
import { estimateCost, type Message, type Runtime, WINDOW_MARGIN } from "@iris/llm";
import type { SessionRow, Store } from "@iris/store";
import type { Profile } from "../config/index.js";
import {
  budgetFor,
  contextFigures,
  engineOptionsFrom,
  formatContextReport,
  lastMeasuredPrompt,
  modelSwitchRisks,
  splitModelSpec,
} from "./context-report.js";
import { modelInfoFor, resolveMainRoute } from "./route.js";
import type { SessionLog } from "./session-log.js";
import { describeWindowUse } from "./window-use.js";

/** What the control needs from the session host. */
export interface ContextHostPort {
  profile: Profile;
  store: Store;
  events: AgentEvents;
  cwd: string;
  /** The main route (after /model). */
  runtime(): Runtime;
  session(): SessionRow;
  /** The conversation is not in state.db (memory, JSONL): the store holds no measurement of it. */
  detached?(): boolean;
  /** Where the session's tools run now (after /workspace); default: the config's choice. */
  workspace?(): string;
  /** After a split: the host continues in this session, with a rebuilt frozen prompt (S2). */
  adopt(sessionId: string): Promise<void>;
}

/** Project instructions re-injected after compaction, capped like the prompt's context layer. */
const PROJECT_CONTEXT_MAX_CHARS = 20_000;

interface Measurement {
  tokens: number;
  /** How many history messages that prompt held. */
  messages: number;
  /** An estimate (the size after a compression), not the API's count. */
  estimated?: true;
}

/** Budgets per loaded config (never changed in place) and route: shared by the sessions of a
 * process, since a stateless API request is a session of its own. */
const budgetsByConfig = new WeakMap<object, Map<string, ContextBudget>>();

/** System prompts' estimates: stateless requests share a few prompts (one per working directory,
 * SPEC S2), and walking a prompt's characters again for every request was a share of each
 * request's own cost. The oldest estimate goes first. */
const systemEstimates = new Map<string, number>();
const MAX_SYSTEM_ESTIMATES = 64;
function systemTokens(system: string): number {
  let tokens = systemEstimates.get(system);
  if (tokens === undefined) {
    tokens = estimateMessagesTokens([], system);
    systemEstimates.set(system, tokens);
    if (systemEstimates.size > MAX_SYSTEM_ESTIMATES)
      systemEstimates.delete(systemEstimates.keys().next().value as string);
  }
  return tokens;
}

export type CompressOutcome =
  | { ok: true; phase: 1 | 2; before: number; after: number; sessionId: string }
  | { ok: false; warning: string };

export class ContextControl {
  private readonly engine: ContextEngine;
  /** The route a fallback moved to, when not the main one. */
  private fallbackRuntime: Runtime | undefined;
  private readonly measured = new Map<string, Measurement>();
  private pending: { sessionId: string; messages: number } | undefined;
  /** Size at the last failed compression per session: no retry until the history grew. */
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly port: ContextHostPort) {
    this.engine = createContextEngine("default", engineOptionsFrom(port.profile.config));
    // The prompt size of the call just made (the API's count beats any estimate).
    port.events.on("llm_call_ended", ({ message }) => {
      const p = this.pending;
      this.pending = undefined;
      if (p && message.usage.inputTokens > 0)
        this.measured.set(p.sessionId, { tokens: message.usage.inputTokens, messages: p.messages });
    });
  }

  /** The fallback chain moved (or returned): the next check uses that route's window (M2). */
  routeChanged(runtime: Runtime | undefined): void {
    const main = this.port.runtime();
    this.fallbackRuntime =
      runtime && (runtime.provider !== main.provider || runtime.model !== main.model) ? runtime : undefined;
  }

  /** The last measured prompt of a session in this process, else from its usage rows. */
  async lastPromptTokens(sessionId: string): Promise<number | undefined> {
    return this.measured.get(sessionId)?.tokens ?? (await this.storedMeasurement(sessionId));
  }

  /** The last prompt size the store recorded (none for a conversation outside state.db). */
  private async storedMeasurement(sessionId: string): Promise<number | undefined> {
    return this.port.detached?.() ? undefined : lastMeasuredPrompt(this.port.store, sessionId);
  }

  /** The prompt size now: the last measurement plus an estimate of what came after it. */
  async promptSize(
    sessionId: string,
    messages: readonly Message[],
    system: string,
  ): Promise<{ tokens: number; source: "measured" | "estimate" }> {
    let m = this.measured.get(sessionId);
    if (!m) {
      const tokens = await this.storedMeasurement(sessionId);
      // The last usage row belongs to the newest assistant message: its prompt ended before it.
      let last = messages.length - 1;
      while (last >= 0 && messages[last]?.role !== "assistant") last--;
      if (tokens !== undefined && last >= 0) m = { tokens, messages: last };
    }
    if (m && m.messages <= messages.length)
      return { tokens: m.tokens + estimateMessagesTokens(messages.slice(m.messages)), source: "measured" };
    return { tokens: estimateMessagesTokens(messages) + systemTokens(system), source: "estimate" };
  }

  /** The check the Agent runs before each model call (TurnEnv.beforeModelCall). */
  beforeModelCall(
    log: SessionLog,
    model: ModelClient,
  ): (messages: Message[], signal?: AbortSignal) => Promise<Message[] | undefined | { exhausted: string }> {
    return async (messages, signal) => {
      const out = await this.check(log, model, messages, signal);
      if (out !== undefined && !Array.isArray(out)) return out;
      this.pending = { sessionId: log.sessionId, messages: (out ?? messages).length };
      return out;
    };
  }

  /**
   * The provider said the prompt is too long though the estimate fitted (TurnEnv.onContextOverflow):
   * compress now as `/compress` does, and hand back the history to resend once.
   */
  onContextOverflow(
    log: SessionLog,
  ): (messages: Message[], signal?: AbortSignal) => Promise<Message[] | undefined> {
    return async (_messages, signal) => {
      this.measured.delete(log.sessionId);
      const out = await this.compressNow(log, signal);
      return out.ok ? await log.history() : undefined;
    };
  }

  /**
   * The budget of a route, computed once per (provider, model): config is read once at start, so
   * only a route change (fallback, /model) needs a new one (M2), not every round.
   */
  private budgetOf(route: { provider: string; model: string }): ContextBudget {
    const { config } = this.port.profile;
    let budgets = budgetsByConfig.get(config);
    if (!budgets) {
      budgets = new Map();
      budgetsByConfig.set(config, budgets);
    }
    const key = `${route.provider}/${route.model}`;
    let budget = budgets.get(key);
    if (!budget) {
      budget = budgetFor(config, route.provider, route.model).budget;
      budgets.set(key, budget);
    }
    return budget;
  }

  private async check(
    log: SessionLog,
    model: ModelClient,
    messages: Message[],
    signal?: AbortSignal,
  ): Promise<Message[] | undefined | { exhausted: string }> {
    const config = this.port.profile.config;
    const route = model.route();
    const budget = this.budgetOf(route);
    const system = this.port.session().systemPrompt ?? "";
    const size = await this.promptSize(log.sessionId, messages, system);
    if (!config.compression.enabled || !this.engine.shouldCompress(size.tokens, budget)) {
      this.critical(size.tokens, budget.gatewayTokens);
      return this.fits(messages, size.tokens, system, route, budget);
    }
    // A failed compression is not retried every round: only once the history grew by a quarter
    // of the tail budget since.
    const failed = this.failedAt.get(log.sessionId);
    if (failed !== undefined && size.tokens < failed + budget.tailBudgetTokens / 4) {
      this.critical(size.tokens, budget.gatewayTokens);
      return this.fits(messages, size.tokens, system, route, budget);
    }
    const outcome = await this.compress(log, messages, size.tokens, system, budget, signal);
    if (!outcome.ok) {
      this.critical(size.tokens, budget.gatewayTokens);
      return this.fits(messages, size.tokens, system, route, budget);
    }
    const after = await log.history();
    return this.fits(after, outcome.after, system, route, budget) ?? after;
  }

  /**
   * Undefined when a request can be built that the window holds: the whole history, or (send-time
   * shaping drops whole oldest turns) the newest turn alone. Else why not, for the user.
   */
  private fits(
    messages: readonly Message[],
    tokens: number,
    system: string,
    route: { provider: string; model: string },
    budget: ContextBudget,
  ): undefined | { exhausted: string } {
    const limit = Math.floor(budget.window * (1 - WINDOW_MARGIN));
    if (tokens <= limit) return undefined;
    const u = newestUserIndex(messages);
    const older = u > 0 ? estimateMessagesTokens(messages.slice(0, u)) : 0;
    if (tokens - older <= limit) return undefined;
    const turn = u >= 0 ? messages.slice(u) : messages;
    return { exhausted: describeWindowUse(turn, system, route, budget.window) };
  }

  private critical(tokens: number, limit: number): void {
    if (tokens >= limit) this.port.events.emit("context_critical", { promptTokens: tokens, limit });
  }

  /**
   * Runs the engine over `messages` (the whole history of the log's session, every call
   * answered) and on success splits the session; the log and the host move to the child.
   */
  async compress(
    log: SessionLog,
    messages: Message[],
    promptTokens: number,
    system: string,
    budget?: ContextBudget,
    signal?: AbortSignal,
  ): Promise<CompressOutcome> {
    const { events } = this.port;
    const route = this.fallbackRuntime ?? this.port.runtime();
    budget ??= this.budgetOf(route);
    const summarizer = this.summarizer(route, log);
    const project = findProjectContext(this.port.cwd)?.content.slice(0, PROJECT_CONTEXT_MAX_CHARS);
    let result: CompressResult;
    try {
      result = await this.engine.compress({
        messages,
        budget,
        ...(summarizer ? { summarizer } : {}),
        ...(project ? { projectInstructions: project } : {}),
        promptTokens,
        system,
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      result = { ok: false, reason, warning: failureWarning(reason), messages };
    }
    const from = log.sessionId;
    if (!result.ok) return this.failed(from, promptTokens, result.warning, result.reason);
    if (result.summaryText === null && log.prune) return this.prunedInPlace(log, log.prune.bind(log), result);
    let child: string;
    try {
      child = await log.split(result.messages, {
        ...(result.summarised ? { lastSummarisedIndex: result.summarised.end - 1 } : {}),
      });
    } catch (err) {
      const reason = `the session could not be split (${(err as Error).message})`;
      return this.failed(from, promptTokens, failureWarning(reason), reason);
    }
    // S2: the frozen prompt is rebuilt after a compression; the child starts with it.
    await this.port.adopt(child);
    this.measured.delete(from);
    this.failedAt.delete(from);
    const detail =
      `phase ${result.phase}: ${result.before.tokens} → about ${result.after.tokens} tokens ` +
      `(${result.before.messages} → ${result.after.messages} messages); continuing in session ${child}`;
    events.emit("context_overflow_action", { action: "compressed", detail });
    events.emit("status", { level: "info", message: `context compressed, ${detail}` });
    return {
      ok: true,
      phase: result.phase,
      before: result.before.tokens,
      after: result.after.tokens,
      sessionId: child,
    };
  }

  /**
   * Phase 1 alone (old tool outputs pruned, no summary) stays in the session (C4 splits for a
   * summary): the pruned path becomes the session's active branch, the frozen prompt stays (S2:
   * it is rebuilt with a new session), and the next size check starts from the pruned estimate.
   */
  private async prunedInPlace(
    log: SessionLog,
    prune: (pruned: readonly Message[]) => Promise<void>,
    result: Extract<CompressResult, { ok: true }>,
  ): Promise<CompressOutcome> {
    const sessionId = log.sessionId;
    try {
      await prune(result.messages);
    } catch (err) {
      const reason = `the pruned history could not be stored (${(err as Error).message})`;
      return this.failed(sessionId, result.before.tokens, failureWarning(reason), reason);
    }
    this.measured.set(sessionId, {
      tokens: result.after.tokens,
      messages: result.messages.length,
      estimated: true,
    });
    this.failedAt.delete(sessionId);
    const detail =
      `phase 1: ${result.before.tokens} → about ${result.after.tokens} tokens ` +
      `(old tool outputs pruned, ${result.before.messages} messages kept); same session`;
    this.port.events.emit("context_overflow_action", { action: "compressed", detail });
    this.port.events.emit("status", { level: "info", message: `context compressed, ${detail}` });
    return { ok: true, phase: 1, before: result.before.tokens, after: result.after.tokens, sessionId };
  }

  private failed(sessionId: string, tokens: number, warning: string, reason: string): CompressOutcome {
    this.failedAt.set(sessionId, tokens);
    this.port.events.emit("context_overflow_action", { action: "compression_failed", detail: reason });
    this.port.events.emit("status", { level: "warn", message: warning });
    return { ok: false, warning };
  }

  /** compression.summary_model resolved like the main model; default: the route in use. */
  private summarizer(route: Runtime, log: SessionLog): Summarizer | undefined {
    const { config, env } = this.port.profile;
    const spec = config.compression.summary_model;
    let runtime = route;
    if (spec) {
      const resolved = resolveMainRoute(splitModelSpec(spec, config, route.provider), config, env);
      if (!resolved.ok) {
        this.port.events.emit("status", {
          level: "warn",
          message: `compression.summary_model ${spec} cannot be used (${resolved.error}); only pruning can run`,
        });
        return undefined;
      }
      runtime = resolved.runtime;
    }
    const info = modelInfoFor(runtime.provider, runtime.model, config).info;
    // The summary call is billed like any other (F3): it counts in the session it summarised.
    return llmSummarizer(runtime, info.contextWindow, (message, latencyMs) =>
      log.recordUsage(usageRowOf(newTaskId(), message, estimateCost(message.usage, info), latencyMs)),
    );
  }

  /** `/compress`: compress the current session now, whatever its size. */
  async compressNow(log: SessionLog, signal?: AbortSignal): Promise<CompressOutcome> {
    const messages = await log.history();
    const system = this.port.session().systemPrompt ?? "";
    const size = await this.promptSize(log.sessionId, messages, system);
    const config = this.port.profile.config;
    const route = this.fallbackRuntime ?? this.port.runtime();
    const budget = this.budgetOf(route);
    // Asked for explicitly: act as if the trigger were the size now, with a tail to match.
    const trigger = Math.max(1, Math.min(budget.triggerTokens, size.tokens));
    const forced: ContextBudget = {
      ...budget,
      triggerTokens: trigger,
      tailBudgetTokens: Math.min(
        budget.tailBudgetTokens,
        Math.floor(trigger * config.compression.target_ratio),
      ),
    };
    return this.compress(log, messages, size.tokens, system, forced, signal);
  }

  /** The figures of `iris context` for the current route and session. */
  async report(): Promise<string> {
    const config = this.port.profile.config;
    const route = this.fallbackRuntime ?? this.port.runtime();
    const session = this.port.session();
    const m = this.measured.get(session.id);
    // An estimate is not passed as a measurement: the report then estimates the history itself.
    const measured = m?.estimated ? undefined : await this.lastPromptTokens(session.id);
    return formatContextReport(
      await contextFigures({
        config,
        provider: route.provider,
        model: route.model,
        store: this.port.store,
        sessionId: session.id,
        ...(this.port.workspace ? { workspace: this.port.workspace() } : {}),
        ...(measured !== undefined ? { lastPromptTokens: measured } : {}),
        ...(m?.estimated ? { sinceCompression: true } : {}),
      }),
    );
  }

  /** H7: why switching the model now would be costly (empty when it is not). */
  switchRisks(): Promise<string[]> {
    return modelSwitchRisks(this.port.store, this.port.session().id);
  }
}
