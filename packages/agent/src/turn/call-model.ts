// Step 8: the interruptible model call. Stream events go to the front end as callbacks; only the
// final message is returned. Partial output never becomes history as a reply (SPEC L7); what an
// interrupt cut is kept as the text the user saw, marked interrupted (keep-shown.ts).
import type { AssistantMessage, LlmError, StreamEvent } from "@iris/llm";
import type { AgentEvents } from "../events.js";
import { usageRowOf } from "../model/usage-row.js";
import type { RequestForRoute } from "../ports.js";
import type { TurnEnv } from "./env.js";
import { keepShown } from "./keep-shown.js";
import { watchSilence } from "./silence-watch.js";
import type { StepSnapshot, TerminationReason, TurnState } from "./types.js";

export async function callModel(
  env: TurnEnv,
  state: TurnState,
  snap: StepSnapshot,
  request: RequestForRoute,
): Promise<AssistantMessage | undefined> {
  env.events.emit("step", { stepId: snap.stepId, round: snap.round });
  env.events.emit("llm_call_started", {
    stepId: snap.stepId,
    provider: snap.route.provider,
    model: snap.route.model,
  });
  env.events.emit("thinking", { active: true });
  let thinking = true;
  const silence = watchSilence(env.events, snap.route);
  // The text of this attempt as the user saw it; a retry's reset voids it.
  let shown = "";
  const offReset = env.events.on("stream_reset", () => {
    shown = "";
  });
  const onEvent = (e: StreamEvent) => {
    silence.touch();
    if (e.type === "start") shown = "";
    else if (e.type === "text_delta") shown += e.delta;
    if (thinking && e.type !== "start") {
      thinking = false;
      env.events.emit("thinking", { active: false });
    }
    forward(env.events, e);
  };
  const timeLeftMs = env.guards.timeLeftMs({ turnStartedAt: state.startedAt, now: env.now() });
  // Usage of replies billed but thrown away, written while the call goes on and awaited after it.
  const discarded: Promise<void>[] = [];
  const res = await env.model
    .call(request, {
      signal: snap.signal,
      ...(timeLeftMs !== undefined ? { timeLeftMs } : {}),
      onEvent,
      stepId: snap.stepId,
      nextStepId: () => state.nextStepId++,
      onDiscarded: (r) => {
        discarded.push(addUsage(env, state, r.message, r.costUsd, r.latencyMs, "discarded"));
      },
    })
    .finally(() => {
      silence.stop();
      offReset();
    });
  await Promise.all(discarded);
  if (thinking) env.events.emit("thinking", { active: false });
  const route = env.model.route();
  if (!res.ok) {
    env.events.emit("llm_call_failed", { stepId: snap.stepId, error: res.error });
    const spent = res.error.kind === "timeout" ? budgetSpent(env, state) : undefined;
    if (snap.signal.aborted || res.error.kind === "aborted") {
      const kept = await keepShown(env, state, snap, shown);
      state.termination = { reason: "user_cancelled", text: "Interrupted.", ...(kept ? { kept } : {}) };
    } else if (spent) {
      // The call's deadline was the turn's or the session's time budget: that budget ended it.
      state.termination = spent;
    } else {
      state.termination = {
        reason: reasonFor(res.error),
        text: describeFailure(res.error, route),
        error: res.error,
      };
    }
    return undefined;
  }
  await addUsage(env, state, res.message, res.costUsd, res.latencyMs, "ok");
  env.events.emit("llm_call_ended", { stepId: snap.stepId, message: res.message, latencyMs: res.latencyMs });
  return res.message;
}

function forward(events: AgentEvents, e: StreamEvent): void {
  if (e.type === "text_delta") events.emit("stream_delta", { text: e.delta });
  else if (e.type === "reasoning_delta") events.emit("reasoning", { text: e.delta });
  else if (e.type === "toolcall_end") events.emit("tool_gen", { call: e.call });
}

/** The budget that has run out now, if one has (a call cut by its deadline ran into it). */
function budgetSpent(env: TurnEnv, state: TurnState): TurnState["termination"] {
  const now = env.now();
  const left = env.guards.timeLeftMs({ turnStartedAt: state.startedAt, now });
  if (left === undefined || left > 0) return undefined;
  const verdict = env.guards.check({
    rounds: state.rounds,
    turnStartedAt: state.startedAt,
    turnCostUsd: state.costUsd,
    now,
  });
  return verdict.ok ? undefined : { reason: verdict.reason, text: verdict.text };
}

/** A provider's filter refusing the prompt itself (Azure's 400 content_filter, moderation). */
const INPUT_FILTER = /content[_ ]?filter|content[_ ]?policy|moderation|flagged|safety system/i;

function reasonFor(error: LlmError): TerminationReason {
  if (error.kind === "billing") return "billing_error";
  if (error.kind === "invalid_request" && INPUT_FILTER.test(`${error.code ?? ""} ${error.message}`))
    return "input_blocked";
  if (error.kind === "context_overflow") return "context_exhausted";
  return "llm_error";
}

/** An honest one-paragraph account, always naming the (provider, model) pair (SPEC P7). */
function describeFailure(error: LlmError, route: { provider: string; model: string }): string {
  const where = `${route.provider}/${route.model}`;
  const status = error.status ? ` (HTTP ${error.status})` : "";
  return `The model call to ${where} failed${status}: ${error.message}`;
}

/** Every billed call counts: in the turn's totals, the cost budget and the usage table (F3). */
export async function addUsage(
  env: TurnEnv,
  state: TurnState,
  message: AssistantMessage,
  costUsd: number,
  latencyMs: number,
  status: "ok" | "discarded",
): Promise<void> {
  const u = message.usage;
  state.usage = {
    inputTokens: state.usage.inputTokens + u.inputTokens,
    outputTokens: state.usage.outputTokens + u.outputTokens,
    cacheReadTokens: state.usage.cacheReadTokens + u.cacheReadTokens,
    cacheWriteTokens: state.usage.cacheWriteTokens + u.cacheWriteTokens,
    reasoningTokens: state.usage.reasoningTokens + u.reasoningTokens,
  };
  state.costUsd += costUsd;
  await env.log.recordUsage(usageRowOf(state.taskId, message, costUsd, latencyMs, status));
}
