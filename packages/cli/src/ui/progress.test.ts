// The progress lines read host's turn view (turn-feed.ts), never raw events: the wait for a silent
// model, and a subagent's finished calls folded under the delegate_task call that runs it.
import { EventFanout, type HostEvent } from "@iris/host";
import { describe, expect, it } from "vitest";
import { attachProgress } from "./progress.js";
import { turnFeed } from "./turn-feed.js";

const parent = { sessionId: "s", taskId: "t1" };
const child = { sessionId: "s", taskId: "t2", parentTaskId: "t1", parentCallId: "d1" };

function setup(isTTY = false) {
  const fanout = new EventFanout();
  let written = "";
  const feed = turnFeed((fn) => fanout.subscribe(fn));
  const detach = attachProgress(feed, { write: (s: string) => (written += s), isTTY, columns: 100 });
  const emit = (e: HostEvent) => fanout.emit(e);
  // What stays on screen: a line rewritten in place ("\r", erase) keeps its last text.
  const lines = () =>
    written
      .split("\n")
      .map((l) => l.split("\r").at(-1)?.replace("\u001b[K", "") ?? "")
      .filter(Boolean);
  return { emit, lines, reset: () => (written = ""), detach };
}

describe("progress from the turn view", () => {
  it("a silent call shows 'waiting for the model (N s)' (at 5, 15, 30 s off a terminal), never mid-stream", () => {
    const { emit, lines, reset } = setup();
    emit({ ...parent, name: "thinking", payload: { active: true } });
    // A call starting is no wait.
    emit({ ...parent, name: "llm_call_started", payload: { stepId: 1, provider: "openai", model: "gpt-x" } });
    for (const seconds of [3, 4, 5, 6, 15, 16, 30])
      emit({ ...parent, name: "waiting", payload: { seconds, provider: "openai", model: "gpt-x" } });
    expect(lines()).toEqual([
      "… waiting for the model openai/gpt-x (5 s)",
      "… waiting for the model openai/gpt-x (15 s)",
      "… waiting for the model openai/gpt-x (30 s)",
    ]);
    reset();
    emit({ ...parent, name: "thinking", payload: { active: false } });
    emit({ ...parent, name: "waiting", payload: { seconds: 60, provider: "openai", model: "gpt-x" } });
    expect(lines()).toEqual([]);
  });

  it.each([
    ["off a terminal", false],
    ["on a terminal", true],
  ])("folds a subagent's finished calls under its delegate_task call (%s)", (_where, isTTY) => {
    const { emit, lines, detach } = setup(isTTY);
    const goal = '{"goal":"read the notes"}';
    emit({
      ...parent,
      name: "tool_progress",
      payload: { phase: "before", callId: "d1", name: "delegate_task", preview: goal },
    });
    emit({ ...child, name: "stream_delta", payload: { text: "child text never shows here" } });
    emit({
      ...child,
      name: "tool_progress",
      payload: { phase: "before", callId: "c1", name: "read_file", preview: '{"path":"/srv/x/notes.md"}' },
    });
    emit({ ...child, name: "tool_progress", payload: { phase: "after", callId: "c1", name: "read_file" } });
    emit({
      ...child,
      name: "tool_progress",
      payload: { phase: "before", callId: "c2", name: "terminal", preview: '{"command":"false"}' },
    });
    emit({
      ...child,
      name: "tool_progress",
      payload: { phase: "after", callId: "c2", name: "terminal", isError: true },
    });
    emit({
      ...parent,
      name: "tool_progress",
      payload: { phase: "after", callId: "d1", name: "delegate_task", isError: false, result: "{}" },
    });
    detach();
    const shown = lines().map((l) => l.replace(/\(\d+\.\ds\)$/, "(Ns)"));
    expect(shown).toEqual([
      `⚙ delegate_task  ${goal}`,
      "  ↳ ✓ read_file: …/notes.md",
      "  ↳ ✗ terminal: false",
      `✓ delegate_task  ${goal} (Ns)`,
    ]);
  });
});
