// stream-json is a protocol: its lines, read from the turn view, keep the shape README documents.
// One intended change since the CLI reads the turn view: an empty text delta is no line.
import { EventFanout, type HostEvent } from "@iris/host";
import { describe, expect, it } from "vitest";
import { recordToolCalls, streamJsonEvents } from "./output-format.js";
import { turnFeed } from "./ui/turn-feed.js";

const id = { sessionId: "s", taskId: "t" };

describe("stream-json from the turn view", () => {
  it("writes the E5 callbacks as before, a subagent's own events not at all", () => {
    const fanout = new EventFanout();
    const feed = turnFeed((fn) => fanout.subscribe(fn));
    const lines: string[] = [];
    streamJsonEvents(feed, (o) => lines.push(JSON.stringify(o)));
    const tools = recordToolCalls(feed);
    const emit = (e: Omit<HostEvent, "sessionId" | "taskId">, extra = {}) =>
      fanout.emit({ ...id, ...e, ...extra } as HostEvent);
    const call = {
      type: "toolCall" as const,
      callId: "c1",
      name: "terminal",
      argumentsJson: '{"command":"ls"}',
    };
    emit({ name: "thinking", payload: { active: true } });
    emit({ name: "step", payload: { stepId: 1, round: 1 } });
    emit({ name: "stream_delta", payload: { text: "" } });
    emit({ name: "stream_delta", payload: { text: "Hi" } });
    emit({ name: "stream_reset", payload: { stepId: 1, reason: "503" } });
    emit({ name: "reasoning", payload: { text: "hmm" } });
    emit({ name: "tool_gen", payload: { call } });
    emit({
      name: "tool_progress",
      payload: { phase: "before", callId: "c1", name: "terminal", preview: "ls" },
    });
    emit({
      name: "tool_progress",
      payload: { phase: "progress", callId: "c1", name: "terminal", message: "1 s" },
    });
    emit({
      name: "tool_exec_ended",
      payload: { callId: "c1", name: "terminal", isError: false, durationMs: 12 },
    });
    emit({
      name: "tool_progress",
      payload: { phase: "after", callId: "c1", name: "terminal", isError: false, result: "a.txt" },
    });
    emit({ name: "status", payload: { level: "warn", message: "slow" } });
    emit({ name: "stream_delta", payload: { text: "child" } }, { taskId: "c", parentTaskId: "t" });
    expect(lines).toEqual([
      '{"type":"thinking","active":true}',
      '{"type":"step","step_id":1,"round":1}',
      '{"type":"stream_delta","text":"Hi"}',
      '{"type":"stream_reset","step_id":1,"reason":"503"}',
      '{"type":"reasoning","text":"hmm"}',
      '{"type":"tool_gen","call":{"id":"c1","name":"terminal","arguments":{"command":"ls"}}}',
      '{"type":"tool_progress","phase":"before","call_id":"c1","name":"terminal","preview":"ls"}',
      '{"type":"tool_progress","phase":"progress","call_id":"c1","name":"terminal","message":"1 s"}',
      '{"type":"tool_progress","phase":"after","call_id":"c1","name":"terminal","is_error":false}',
      '{"type":"tool_result","call_id":"c1","name":"terminal","content":"a.txt","is_error":false}',
      '{"type":"status","level":"warn","message":"slow"}',
    ]);
    expect(tools.calls).toEqual([
      { id: "c1", name: "terminal", arguments: { command: "ls" }, is_error: false, duration_ms: 12 },
    ]);
  });
});
