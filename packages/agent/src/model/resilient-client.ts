// The ModelClient the agent uses in production: one call = retries on the active route (F1), then
// a walk down the fallback chain (F2, U4), with per-route cooldowns and a return to the primary
// once its cooldown ends. The turn sees only the successful message; the history is untouched.
import { type LlmError, llmError, type Runtime } from "@iris/llm";
import type { AgentEventMap, AgentEventName, AgentEvents } from "../events.js";
import { type ModelClient, requestFor } from "../ports.js";
import type { RouteInfo } from "../turn/types.js";
import { CallDeadline, DEFAULT_CALL_DEADLINE_MS } from "./call-deadline.js";
import { CooldownBook, cooldownKey, DEFAULT_COOLDOWN_MS, type RouteHealth } from "./cooldown.js";
import { type RouteResolver, type RouteSpec, routeKey, routeLabel, specMatches } from "./fallback-chain.js";
import { type LlmClientOptions, LlmModelClient } from "./llm-client.js";
import {
  ACTION_BY_KIND,
  DEFAULT_RETRY,
  describeError,
  fallsBack,
  formatDelay,
  isEmptyReply,
  type RetryConfig,
  retryDelayMs,
} from "./retry-policy.js";
import { interruptibleSleep } from "./sleep.js";

type CallArgs = Parameters<ModelClient["call"]>;
type CallResult = Awaited<ReturnType<ModelClient["call"]>>;
type Failure = Extract<CallResult, { ok: false }>;

export interface ResilientClientOptions {
  /** The main route, already resolved (startup reports a main route that cannot be resolved). */
  primary: Runtime;
  /** `fallback_providers`, in order. */
  fallbacks?: readonly RouteSpec[];
  /** Resolves a fallback entry when it is activated (never earlier). Without it fallbacks are skipped. */
  resolve?: RouteResolver;
  /**
   * After a 401/403: fresh credentials for this route, or undefined when none can be had.
   * Default: re-resolve the route through `resolve` and use it when the key changed.
   */
  refreshCredentials?: (runtime: Runtime) => Promise<Runtime | undefined>;
  /** Builds the single-route client for a runtime (default: LlmModelClient with `clientOptions`). */
  makeClient?: (runtime: Runtime) => ModelClient;
  clientOptions?: LlmClientOptions;
  /** Hooks and status lines go here: pass the Agent's emitter. */
  events?: AgentEvents;
  /** The active route changed (fallback or return): recompute context thresholds (M2) and the like. */
  onRouteChange?: (runtime: Runtime) => void;
  retry?: Partial<RetryConfig>;
  /** How long a failed route is passed over (default 60 s). */
  cooldownMs?: number;
  now?: () => number;
  /** Cooldowns shared with another client of the same chain (a subagent's, a cron job's). */
  cooldowns?: CooldownBook;
  /** Keeps cooldowns beyond this process (the store), so the next run honours them. */
  routeHealth?: RouteHealth;
  /** In [0, 1): backoff jitter. */
  random?: () => number;
  /** Resolves false when aborted. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

/** One position of the chain: 0 is the primary. A fallback's runtime is set when it is activated. */
interface Slot {
  index: number;
  spec: RouteSpec;
  runtime?: Runtime;
  client?: ModelClient;
}

interface ActiveSlot extends Slot {
  runtime: Runtime;
  client: ModelClient;
}

const ABORTED: LlmError = llmError("aborted", "the request was aborted");

export class ResilientModelClient implements ModelClient {
  private readonly slots: Slot[];
  private active: ActiveSlot;
  private readonly cooldowns: CooldownBook;
  private readonly retry: RetryConfig;

  constructor(private readonly opts: ResilientClientOptions) {
    const p = opts.primary;
    const primary: ActiveSlot = {
      index: 0,
      spec: { provider: p.provider, model: p.model, baseUrl: p.baseUrl },
      runtime: p,
      client: this.makeClient(p),
    };
    this.slots = [primary, ...(opts.fallbacks ?? []).map((spec, i) => ({ index: i + 1, spec }))];
    this.active = primary;
    this.cooldowns =
      opts.cooldowns ??
      new CooldownBook(opts.cooldownMs ?? DEFAULT_COOLDOWN_MS, opts.now ?? Date.now, opts.routeHealth);
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
  }

  route(): RouteInfo {
    return routeInfoOf(this.active.runtime);
  }

  /** The runtime calls go to now. */
  activeRuntime(): Runtime {
    return this.active.runtime;
  }

  /** The chain in order: the primary, then the fallbacks as configured. */
  chain(): RouteSpec[] {
    return this.slots.map((s) => ({ ...s.spec }));
  }

  /**
   * A client for a subagent or a cron job (L10, F2): the same chain, starting on the primary, with
   * the cooldowns shared so a route that just failed here is passed over there too.
   */
  spawn(
    overrides: Partial<Omit<ResilientClientOptions, "primary" | "fallbacks" | "cooldowns">> = {},
  ): ResilientModelClient {
    const primary = this.slots[0]?.runtime ?? this.opts.primary;
    return new ResilientModelClient({ ...this.opts, ...overrides, primary, cooldowns: this.cooldowns });
  }

  /** Milliseconds of cooldown left for chain position `index` (0 = primary). */
  cooldownRemainingMs(index: number): number {
    const slot = this.slots[index];
    return slot ? this.cooldowns.remainingMs(cooldownKey(slot.spec)) : 0;
  }

  async call(...[request, callerOpts]: CallArgs): Promise<CallResult> {
    if (callerOpts.signal.aborted) return { ok: false, error: ABORTED };
    const totalMs = this.retry.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    const deadline = new CallDeadline(callerOpts.signal, Math.min(totalMs, callerOpts.timeLeftMs ?? totalMs));
    try {
      const res = await this.callWithin(request, { ...callerOpts, signal: deadline.signal }, deadline);
      // The deadline, not the user, stopped it: a timeout the turn reports as such.
      if (!res.ok && deadline.expired && !callerOpts.signal.aborted) return fail(deadline.error());
      return res;
    } finally {
      deadline.dispose();
    }
  }

  private async callWithin(
    request: CallArgs[0],
    opts: CallArgs[1],
    deadline: CallDeadline,
  ): Promise<CallResult> {
    // What other processes know of the routes' health, read once per call.
    await this.cooldowns.refresh(this.slots.map((s) => cooldownKey(s.spec)));
    await this.pickRouteForCall();
    // No-refire guard: within one call each chain position is tried at most once.
    const tried = new Set<number>();
    const triedKeys = new Set<string>();
    // Every attempt is its own sampling: the first uses the caller's step id, retries and
    // fallbacks take fresh ones, so step ids keep rising across retries (SPEC L6).
    let first = true;
    const nextStep = () => {
      if (first) {
        first = false;
        return opts.stepId;
      }
      return opts.nextStepId?.() ?? opts.stepId;
    };
    for (;;) {
      const slot = this.active;
      tried.add(slot.index);
      triedKeys.add(routeKey(slot.runtime));
      const canFallBack = () =>
        this.slots.some((s) => !tried.has(s.index) && !this.cooldowns.isCooling(cooldownKey(s.spec)));
      const res = await this.callWithRetries(slot, request, opts, nextStep, { canFallBack, deadline });
      if (res.ok) {
        this.cooldowns.clear(cooldownKey(slot.spec));
        return res;
      }
      if (opts.signal.aborted || res.error.kind === "aborted") return { ok: false, error: ABORTED };
      if (!fallsBack(res.error.kind) || deadline.expired) return res;
      // A reply cut at the output limit says nothing about the route's health (the request did it).
      if (res.error.code !== "max_tokens")
        this.cooldowns.mark(cooldownKey(slot.spec), describeError(res.error, routeLabel(slot.runtime)));
      const next = await this.activateNext(slot, res.error, tried, triedKeys);
      if (!next) {
        if (this.slots.length > 1) {
          this.status(
            "error",
            `${describeError(res.error, routeLabel(slot.runtime))}: no fallback route left to try`,
          );
        }
        return res;
      }
    }
  }

  /** Retries on one route (F1). Returns the success, or the error that ends this route's turn in the call. */
  private async callWithRetries(
    slot: ActiveSlot,
    request: CallArgs[0],
    callerOpts: CallArgs[1],
    nextStep: () => number,
    limits: { canFallBack: () => boolean; deadline: CallDeadline },
  ): Promise<CallResult> {
    let retries = 0;
    let refreshed = false;
    for (;;) {
      const opts = { ...callerOpts, stepId: nextStep() };
      const runtime = slot.runtime;
      let streamed = false;
      const onEvent: CallArgs[1]["onEvent"] = (e) => {
        if (e.type !== "start") streamed = true;
        opts.onEvent(e);
      };
      // Built and shaped for this attempt's route (H4, F2); prompt caching is re-evaluated per
      // route: one that declares no cache support gets no markers.
      const shaped = requestFor(request, routeInfoOf(runtime));
      const req = shaped.cache && runtime.compat.promptCache === false ? { ...shaped, cache: false } : shaped;
      const res = await slot.client.call(req, { ...opts, onEvent });
      let error: LlmError;
      if (res.ok && !isEmptyReply(res.message)) return res;
      // Cut at the output token limit before any text or tool call (all reasoning, say): the same
      // request would be cut again, so it is not retried; another route may still answer.
      const cut = res.ok && res.message.stopReason === "max_tokens";
      if (res.ok) {
        opts.onDiscarded?.(res);
        error = cut
          ? {
              ...llmError("invalid_response", "empty reply: cut at the output token limit"),
              code: "max_tokens",
            }
          : llmError("invalid_response", "empty reply: no text and no tool call");
      } else error = res.error;
      // An interrupt keeps what was shown (the turn stores it marked interrupted, L7).
      if (opts.signal.aborted || error.kind === "aborted") return fail(ABORTED);
      if (streamed) {
        // Partial output of a failed attempt must not survive in the front end (L7).
        this.emit("stream_reset", { stepId: opts.stepId, reason: error.message });
      }
      if (cut) return fail(error);
      const label = routeLabel(runtime);
      const action = ACTION_BY_KIND[error.kind];
      if (action === "refresh") {
        if (refreshed) return fail(error);
        refreshed = true;
        const fresh = await this.refresh(runtime);
        if (!fresh) {
          this.status("warn", `${describeError(error, label)}; the credentials could not be refreshed`);
          return fail(error);
        }
        const moved = routeKey(fresh) !== routeKey(runtime) || fresh.apiMode !== runtime.apiMode;
        slot.runtime = fresh;
        slot.client = this.makeClient(fresh);
        if (moved) this.opts.onRouteChange?.(fresh);
        this.emit("llm_call_retried", { stepId: opts.stepId, attempt: retries + 1, delayMs: 0, error });
        this.status("warn", `${describeError(error, label)}; credentials refreshed, retrying`);
        continue;
      }
      if (action !== "retry" || retries >= this.retry.maxRetries) return fail(error);
      // A stall costs a whole timeout per attempt: another route takes over at once if it can.
      const stallRetries = this.retry.maxTimeoutRetries ?? this.retry.maxRetries;
      if (error.kind === "timeout" && (limits.canFallBack() || retries >= stallRetries)) return fail(error);
      retries += 1;
      const delayMs = retryDelayMs(error, retries, this.retry, this.opts.random ?? Math.random);
      if (limits.deadline.wouldPass(delayMs)) return fail(error);
      this.emit("llm_call_retried", { stepId: opts.stepId, attempt: retries, delayMs, error });
      this.status(
        "warn",
        `${describeError(error, label)}, retrying in ${formatDelay(delayMs)} (${retries}/${this.retry.maxRetries})`,
      );
      const slept = await (this.opts.sleep ?? interruptibleSleep)(delayMs, opts.signal);
      if (!slept || opts.signal.aborted) return fail(ABORTED);
    }
  }

  /**
   * F2 activation: the next usable chain position in order, skipping what this call already
   * tried, routes equal to the failing one, routes cooling down and entries whose credentials
   * cannot be resolved now. Retry counters start afresh on the new route.
   */
  private async activateNext(
    failing: ActiveSlot,
    error: LlmError,
    tried: Set<number>,
    triedKeys: Set<string>,
  ): Promise<ActiveSlot | undefined> {
    const from = routeLabel(failing.runtime);
    for (const slot of this.slots) {
      if (tried.has(slot.index)) continue;
      tried.add(slot.index);
      const label = routeLabel(slot.spec);
      if (specMatches(slot.spec, failing.runtime)) {
        this.skip(label, "same route as the one that failed");
        continue;
      }
      const left = this.cooldowns.remainingMs(cooldownKey(slot.spec));
      if (left > 0) {
        this.skip(label, `cooling down for another ${formatDelay(left)}`);
        continue;
      }
      const ready = await this.prepare(slot);
      if (!ready) continue;
      if (triedKeys.has(routeKey(ready.runtime))) {
        this.skip(label, "resolves to a route already tried in this call");
        continue;
      }
      const reason = describeError(error, from);
      const position =
        slot.index === 0 ? "the primary route" : `fallback ${slot.index}/${this.slots.length - 1}`;
      this.switchTo(ready);
      this.emit("fallback_activated", { from, to: routeLabel(ready.runtime), reason });
      this.status("warn", `${reason}; switching to ${routeLabel(ready.runtime)} (${position})`);
      return ready;
    }
    return undefined;
  }

  /**
   * At the start of a call: the first chain position not cooling down, the primary first (U4).
   * When every position cools down, the active one is kept (something must be tried).
   */
  private async pickRouteForCall(): Promise<void> {
    for (const slot of this.slots) {
      const cooling = this.cooldowns.isCooling(cooldownKey(slot.spec));
      if (slot.index === this.active.index) {
        if (!cooling) return;
        continue;
      }
      if (cooling) continue;
      const ready = await this.prepare(slot);
      if (!ready) continue;
      const from = routeLabel(this.active.runtime);
      const to = routeLabel(ready.runtime);
      const earlier = ready.index < this.active.index;
      this.switchTo(ready);
      if (earlier) {
        this.emit("route_restored", { from, to });
        this.status("info", `back on ${to} (was ${from})`);
      } else {
        const reason = `${from} is cooling down after a failure`;
        this.emit("fallback_activated", { from, to, reason });
        this.status("warn", `${reason}; using ${to}`);
      }
      return;
    }
  }

  /** A fresh runtime and client for a chain position; fallbacks are resolved now, every time. */
  private async prepare(slot: Slot): Promise<ActiveSlot | undefined> {
    if (slot.index === 0 && slot.runtime && slot.client) return slot as ActiveSlot;
    const label = routeLabel(slot.spec);
    if (!this.opts.resolve) {
      this.skip(label, "no resolver was given to read its credentials");
      return undefined;
    }
    let res: Awaited<ReturnType<RouteResolver>>;
    try {
      res = await this.opts.resolve(slot.spec);
    } catch (err) {
      res = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    if (!res.ok) {
      this.skip(label, `cannot resolve it: ${res.error}`);
      return undefined;
    }
    slot.runtime = res.runtime;
    slot.client = this.makeClient(res.runtime);
    return slot as ActiveSlot;
  }

  /** Swaps model, provider, base URL, api mode and client together, and tells the agent. */
  private switchTo(slot: ActiveSlot): void {
    this.active = slot;
    this.opts.onRouteChange?.(slot.runtime);
  }

  private async refresh(runtime: Runtime): Promise<Runtime | undefined> {
    try {
      if (this.opts.refreshCredentials) return await this.opts.refreshCredentials(runtime);
      if (!this.opts.resolve) return undefined;
      const res = await this.opts.resolve({
        provider: runtime.provider,
        model: runtime.model,
        baseUrl: runtime.baseUrl,
      });
      // The same key again would be rejected again.
      return res.ok && res.runtime.apiKey !== runtime.apiKey ? res.runtime : undefined;
    } catch (err) {
      this.status(
        "warn",
        `credential refresh for ${routeLabel(runtime)} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      return undefined;
    }
  }

  private makeClient(runtime: Runtime): ModelClient {
    return this.opts.makeClient?.(runtime) ?? new LlmModelClient(runtime, this.opts.clientOptions);
  }

  private skip(route: string, reason: string): void {
    this.emit("fallback_skipped", { route, reason });
    this.status("warn", `fallback ${route} skipped: ${reason}`);
  }

  private status(level: "info" | "warn" | "error", message: string): void {
    this.emit("status", { level, message });
  }

  private emit<K extends AgentEventName>(name: K, payload: AgentEventMap[K]): void {
    this.opts.events?.emit(name, payload);
  }
}

function routeInfoOf(r: Runtime): RouteInfo {
  return { provider: r.provider, model: r.model, apiMode: r.apiMode, baseUrl: r.baseUrl };
}

function fail(error: LlmError): Failure {
  return { ok: false, error };
}
