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
    expect(v.apply(ev({ name: "step", payload: { stepId: 1, round: 1 } }))).toBeUndefined();
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
    v.apply(ev({ name: "llm_call_ended", payload: { stepId: 1, message: reply(10), latencyMs: 1 } }));
    v.apply(ev({ name: "llm_call_ended", payload: { stepId: 2, message: reply(32), latencyMs: 1 } }));
    expect(v.state.usage).toMatchObject({ inputTokens: 42, outputTokens: 2 });
    expect(
      v.apply(ev({ name: "turn_completed", payload: { taskId: "t", reason: "natural", rounds: 2 } })),
    ).toEqual({
      kind: "ended",
      reason: "natural",
    });
    expect(v.state.text).toBe("Hello. ");
  });

  it("folds a subagent's events under its task, never into the answer", () => {
    const v = new TurnView();
    const child = { taskId: "child", parentTaskId: "t" };
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
        text: "sub text",
        tools: [{ callId: "k", name: "terminal", text: "terminal", status: "running" }],
        done: true,
      },
    ]);
  });
});
