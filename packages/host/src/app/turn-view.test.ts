// The turn view folds a session's events as every front end renders them: the answer's text
// (a failed attempt's partial text withdrawn), tool calls by id with their status, a subagent's
// text and calls under its own task (never in the answer), usage summed per model call.
import type { AssistantMessage } from "@iris/llm";
import { describe, expect, it } from "vitest";
import type { HostEvent } from "./events.js";
import { TurnView } from "./turn-view.js";

const id = { sessionId: "s", taskId: "t" };
const ev = (e: Omit<HostEvent, "sessionId" | "taskId">, extra: Partial<HostEvent> = {}) =>
  ({ ...id, ...e, ...extra }) as HostEvent;
const reply = (input: number): AssistantMessage => ({
  role: "assistant",
  parts: [],
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: input, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "end",
});

describe("TurnView", () => {
  it("keeps text, withdraws a reset attempt, tracks calls and sums usage", () => {
    const v = new TurnView();
    expect(v.apply(ev({ name: "step", payload: { stepId: 1, round: 1 } }))).toEqual({
      kind: "step",
      stepId: 1,
      round: 1,
    });
    expect(v.apply(ev({ name: "stream_delta", payload: { text: "Hel" } }))).toEqual({
      kind: "text",
      delta: "Hel",
    });
    v.apply(ev({ name: "stream_delta", payload: { text: "lo. " } }));
    v.apply(ev({ name: "step", payload: { stepId: 2, round: 2 } }));
    v.apply(ev({ name: "stream_delta", payload: { text: "half" } }));
    expect(v.apply(ev({ name: "stream_reset", payload: { stepId: 2, reason: "503" } }))).toEqual({
      kind: "reset",
      text: "Hello. ",
      stepId: 2,
      reason: "503",
    });
    const before = v.apply(
      ev({
        name: "tool_progress",
        payload: { phase: "before", callId: "c1", name: "read_file", preview: '{"path":"/srv/x/notes.md"}' },
      }),
    );
    expect(before).toMatchObject({ kind: "tool", phase: "before", call: { status: "running" } });
    expect(v.state.tools[0]?.text).toBe("read_file: …/notes.md");
    v.apply(ev({ name: "tool_progress", payload: { phase: "before", callId: "c2", name: "read_file" } }));
    v.apply(
      ev({
        name: "tool_progress",
        payload: { phase: "after", callId: "c2", name: "read_file", isError: true },
      }),
    );
    v.apply(ev({ name: "tool_progress", payload: { phase: "after", callId: "c1", name: "read_file" } }));
    expect(v.state.tools.map((t) => [t.callId, t.status])).toEqual([
      ["c1", "done"],
      ["c2", "failed"],
    ]);
    expect(
      v.apply(ev({ name: "llm_call_ended", payload: { stepId: 1, message: reply(10), latencyMs: 1 } })),
    ).toMatchObject({ kind: "usage", call: { inputTokens: 10 }, total: { inputTokens: 10 } });
    v.apply(ev({ name: "llm_call_ended", payload: { stepId: 2, message: reply(32), latencyMs: 1 } }));
    expect(v.state.usage).toMatchObject({ inputTokens: 42, outputTokens: 2 });
    expect(
      v.apply(ev({ name: "turn_completed", payload: { taskId: "t", reason: "natural", rounds: 2 } })),
    ).toEqual({
      kind: "ended",
      reason: "natural",
      taskId: "t",
      rounds: 2,
    });
    expect(v.state.text).toBe("Hello. ");
  });

  it("folds a subagent's events under its task, never into the answer", () => {
    const v = new TurnView();
    const child = { taskId: "child", parentTaskId: "t", parentCallId: "d1" };
    v.apply(ev({ name: "stream_delta", payload: { text: "looking" } }));
    const change = v.apply(ev({ name: "stream_delta", payload: { text: "sub text" } }, child));
    expect(change).toMatchObject({ kind: "subagent", subagent: { taskId: "child", text: "sub text" } });
    v.apply(
      ev({ name: "tool_progress", payload: { phase: "before", callId: "k", name: "terminal" } }, child),
    );
    v.apply(
      ev({ name: "turn_completed", payload: { taskId: "child", reason: "natural", rounds: 1 } }, child),
    );
    expect(v.state.text).toBe("looking");
    expect(v.state.ended).toBeUndefined();
    expect(v.state.subagents).toEqual([
      {
        taskId: "child",
        parentTaskId: "t",
        parentCallId: "d1",
        text: "sub text",
        tools: [{ callId: "k", name: "terminal", text: "terminal", status: "running", stepId: 0 }],
        done: true,
      },
    ]);
  });

  it("says when a call was asked for, what it returned, and the model's waits and notices", () => {
    const v = new TurnView();
    v.apply(ev({ name: "step", payload: { stepId: 3, round: 1 } }));
    expect(
      v.apply(ev({ name: "llm_call_started", payload: { stepId: 3, provider: "p", model: "m" } })),
    ).toEqual({
      kind: "waiting",
      seconds: 0,
      provider: "p",
      model: "m",
      stepId: 3,
    });
    expect(v.apply(ev({ name: "waiting", payload: { seconds: 4, provider: "p", model: "m" } }))).toEqual({
      kind: "waiting",
      seconds: 4,
      provider: "p",
      model: "m",
    });
    const call = {
      type: "toolCall" as const,
      callId: "c9",
      name: "terminal",
      argumentsJson: '{"command":"ls"}',
    };
    expect(v.apply(ev({ name: "tool_gen", payload: { call } }))).toMatchObject({
      kind: "tool",
      phase: "generated",
      call: { callId: "c9", text: "terminal: ls", stepId: 3, argumentsJson: '{"command":"ls"}' },
    });
    expect(
      v.apply(
        ev({
          name: "tool_progress",
          payload: { phase: "after", callId: "c9", name: "terminal", result: "a.txt", isError: false },
        }),
      ),
    ).toMatchObject({
      kind: "tool",
      phase: "after",
      result: "a.txt",
      isError: false,
      call: { status: "done" },
    });
    expect(v.state.tools).toHaveLength(1);
    expect(v.apply(ev({ name: "status", payload: { level: "warn", message: "slow" } }))).toEqual({
      kind: "notice",
      level: "warn",
      message: "slow",
    });
    // A subagent's notice is its own, not the turn's; its calls come with the subagent.
    const child = { taskId: "child", parentTaskId: "t" };
    expect(v.apply(ev({ name: "status", payload: { level: "warn", message: "x" } }, child))).toBeUndefined();
    expect(
      v.apply(
        ev({ name: "tool_progress", payload: { phase: "before", callId: "k", name: "web_search" } }, child),
      ),
    ).toMatchObject({ kind: "subagent", tool: { phase: "before", call: { callId: "k" } } });
  });

  it("reports the lifecycle a log shows: a call's duration, retries, route moves, approvals", () => {
    const v = new TurnView();
    v.apply(ev({ name: "tool_progress", payload: { phase: "before", callId: "c1", name: "terminal" } }));
    expect(
      v.apply(
        ev({
          name: "tool_exec_ended",
          payload: { callId: "c1", name: "terminal", isError: false, durationMs: 7 },
        }),
      ),
    ).toBeUndefined();
    expect(
      v.apply(ev({ name: "tool_progress", payload: { phase: "after", callId: "c1", name: "terminal" } })),
    ).toMatchObject({ kind: "tool", phase: "after", call: { durationMs: 7 } });
    const error = { kind: "rate_limit", message: "slow down", retryable: true } as const;
    expect(
      v.apply(ev({ name: "llm_call_retried", payload: { stepId: 2, attempt: 1, delayMs: 50, error } })),
    ).toEqual({ kind: "retry", stepId: 2, attempt: 1, delayMs: 50, errorKind: "rate_limit" });
    expect(
      v.apply(ev({ name: "fallback_activated", payload: { from: "a/x", to: "b/y", reason: "429" } })),
    ).toEqual({ kind: "route", phase: "fallback", from: "a/x", to: "b/y", reason: "429" });
    expect(
      v.apply(
        ev({ name: "tool_approval_granted", payload: { tool: "terminal", command: "ls", scope: "once" } }),
      ),
    ).toEqual({ kind: "approval", phase: "granted", tool: "terminal", command: "ls", scope: "once" });
    expect(v.apply(ev({ name: "thinking", payload: { active: true } }))).toEqual({
      kind: "thinking",
      active: true,
    });
  });
});
