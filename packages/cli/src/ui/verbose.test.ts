// `--verbose` words the lifecycle the turn view reports: model calls, retries, route moves, tool
// runs with their durations, approvals and the turn's end.
import { EventFanout, type HostEvent } from "@iris/host";
import type { AssistantMessage } from "@iris/llm";
import { describe, expect, it } from "vitest";
import { turnFeed } from "./turn-feed.js";
import { attachVerbose } from "./verbose.js";

const id = { sessionId: "s", taskId: "t" };
const reply: AssistantMessage = {
  role: "assistant",
  parts: [],
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: 9, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "tool_calls",
};

describe("--verbose from the turn view", () => {
  it("logs a call's start, retry, fallback, tools, approvals and end", () => {
    const fanout = new EventFanout();
    let written = "";
    attachVerbose(
      turnFeed((fn) => fanout.subscribe(fn)),
      { write: (s: string) => (written += s) },
    );
    const emit = (e: Omit<HostEvent, "sessionId" | "taskId">, extra = {}) =>
      fanout.emit({ ...id, ...e, ...extra } as HostEvent);
    const error = { kind: "server", message: "503", retryable: true } as const;
    emit({ name: "llm_call_started", payload: { stepId: 1, provider: "p", model: "m" } });
    emit({ name: "waiting", payload: { seconds: 4, provider: "p", model: "m" } });
    emit({ name: "llm_call_retried", payload: { stepId: 1, attempt: 1, delayMs: 20, error } });
    emit({ name: "llm_call_failed", payload: { stepId: 1, error } });
    emit({ name: "fallback_activated", payload: { from: "p/m", to: "q/n", reason: "server" } });
    emit({ name: "llm_call_ended", payload: { stepId: 1, message: reply, latencyMs: 31 } });
    emit({
      name: "tool_approval_requested",
      payload: { tool: "terminal", command: "rm x", reason: "deletes" },
    });
    emit({ name: "tool_approval_granted", payload: { tool: "terminal", command: "rm x", scope: "once" } });
    emit({ name: "tool_progress", payload: { phase: "before", callId: "c1", name: "terminal" } });
    emit({
      name: "tool_exec_ended",
      payload: { callId: "c1", name: "terminal", isError: true, durationMs: 5 },
    });
    emit({
      name: "tool_progress",
      payload: { phase: "after", callId: "c1", name: "terminal", isError: true },
    });
    // A subagent's calls are the progress lines' business, not the log's.
    emit(
      { name: "tool_progress", payload: { phase: "before", callId: "k", name: "read_file" } },
      { taskId: "c", parentTaskId: "t" },
    );
    emit({ name: "turn_completed", payload: { taskId: "t", reason: "natural", rounds: 2 } });
    const lines = written
      .split("\n")
      .filter(Boolean)
      .map((l) => l.replace(/^\[iris \+\d+\.\d\ds\] /, ""));
    expect(lines).toEqual([
      "model call 1 → p/m",
      "model call 1 retry 1 in 20 ms (server)",
      "model call 1 failed: server: 503",
      "fallback p/m → q/n: server",
      "model call 1 done in 31 ms: 9 in (4 cached), 2 out, stop tool_calls",
      "approval asked: terminal: rm x (deletes)",
      "approval granted (once): rm x",
      "tool terminal (c1) started",
      "tool terminal (c1) failed in 5 ms",
      "turn t ended: natural after 2 rounds",
    ]);
  });
});
