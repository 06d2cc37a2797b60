// Runs one reply's tool calls (SPEC L8, H3): in parallel when every call is parallel-safe and none
// is interactive, otherwise in order. Results are checkpointed in call order; a call that will
// not run gets its "not executed" result persisted at once.
import type { ToolCallPart, ToolResultMessage } from "@iris/llm";
import { addUsage } from "./call-model.js";
import type { TurnEnv } from "./env.js";
import type { StepSnapshot, TurnState } from "./types.js";

export interface ToolOutcome {
  name: string;
  argumentsJson: string;
  isError: boolean;
}

export async function runTools(
  env: TurnEnv,
  state: TurnState,
  snap: StepSnapshot,
  replyCalls: ToolCallPart[],
  assistantNodeId: string,
): Promise<ToolOutcome[]> {
  // Calls of the API client's own tools stay unanswered here: the client runs them (E3).
  const calls = replyCalls.filter((c) => !env.tools.traits(c.name)?.external);
  const parallel =
    calls.length > 1 &&
    calls.every((c) => {
      const t = env.tools.traits(c.name);
      return t?.parallelSafe === true && !t.interactive;
    });
  const outcomes: ToolOutcome[] = [];
  const persist = async (call: ToolCallPart, result: ToolResultMessage) => {
    await env.log.append(result);
    state.messages.push(result);
    outcomes.push({ name: call.name, argumentsJson: call.argumentsJson, isError: result.isError });
  };

  if (parallel) {
    const running = calls.map((c) => runOne(env, state, snap, c, assistantNodeId));
    // Persist in call order, each as soon as it and every earlier one are done.
    for (let i = 0; i < calls.length; i++) await persist(calls[i]!, await running[i]!);
  } else {
    for (const call of calls) {
      if (snap.signal.aborted) await persist(call, notExecuted(call, "the user interrupted the turn"));
      else await persist(call, await runOne(env, state, snap, call, assistantNodeId));
    }
  }
  if (snap.signal.aborted) state.termination = { reason: "user_cancelled", text: "Interrupted." };
  else if (calls.length < replyCalls.length) state.termination = { reason: "client_tool_calls", text: "" };
  return outcomes;
}

async function runOne(
  env: TurnEnv,
  state: TurnState,
  snap: StepSnapshot,
  call: ToolCallPart,
  assistantNodeId: string,
): Promise<ToolResultMessage> {
  if (snap.signal.aborted) return notExecuted(call, "the user interrupted the turn");
  const started = env.now();
  env.events.emit("tool_exec_started", { callId: call.callId, name: call.name });
  env.events.emit("tool_progress", {
    phase: "before",
    callId: call.callId,
    name: call.name,
    preview: preview(call),
  });
  let content: string;
  let isError: boolean;
  let images: { mediaType: string; data: string }[] | undefined;
  try {
    ({ content, isError, images } = await env.tools.run(call, {
      signal: snap.signal,
      taskId: state.taskId,
      sessionId: env.log.sessionId,
      callId: call.callId,
      cwd: env.cwd,
      assistantNodeId,
      stepId: snap.stepId,
      // Now, not at the round's start: an earlier call of this round may have spent some.
      costLeftUsd: env.guards.left({ rounds: state.rounds, turnCostUsd: state.costUsd }).costUsd,
      addCost: (usd) => {
        state.costUsd += usd;
      },
      recordModelCall: (message, costUsd, latencyMs) =>
        addUsage(env, state, message, costUsd, latencyMs, "ok"),
      progress: (message) =>
        env.events.emit("tool_progress", {
          phase: "progress",
          callId: call.callId,
          name: call.name,
          message,
        }),
    }));
  } catch (err) {
    // The toolbox seals errors itself; this is the last line of defence (T3).
    content = JSON.stringify({ error: `tool ${call.name} failed: ${String(err)}` });
    isError = true;
    env.events.emit("tool_exec_failed", { callId: call.callId, name: call.name, error: String(err) });
  }
  env.events.emit("tool_exec_ended", {
    callId: call.callId,
    name: call.name,
    isError,
    durationMs: env.now() - started,
  });
  env.events.emit("tool_progress", {
    phase: "after",
    callId: call.callId,
    name: call.name,
    isError,
    ...(isError ? { message: errorSummary(content) } : {}),
    result: content,
  });
  // A screenshot and the like go to the model as image parts after the text (SPEC H4 shapes
  // them per route: a text-only model gets a note instead).
  const parts = images?.length
    ? [{ type: "text" as const, text: content }, ...images.map((i) => ({ type: "image" as const, ...i }))]
    : content;
  return { role: "tool", callId: call.callId, toolName: call.name, content: parts, isError };
}

/** One line saying why a call failed, for progress displays: the `error` field or the first line. */
function errorSummary(content: string): string {
  let text = content;
  try {
    const parsed = JSON.parse(content) as unknown;
    if (parsed && typeof parsed === "object" && typeof (parsed as { error?: unknown }).error === "string")
      text = (parsed as { error: string }).error;
  } catch {
    // not JSON: the tool's own text
  }
  const line =
    text
      .trim()
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function notExecuted(call: ToolCallPart, why: string): ToolResultMessage {
  return {
    role: "tool",
    callId: call.callId,
    toolName: call.name,
    content: JSON.stringify({ error: `not executed: ${why}` }),
    isError: true,
    notExecuted: why,
  };
}

function preview(call: ToolCallPart): string {
  const s = call.argumentsJson.replace(/\s+/g, " ");
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}
