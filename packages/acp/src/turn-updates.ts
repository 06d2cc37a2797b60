// One turn as ACP `session/update`s, rendered from the shared turn view's changes: text and thought chunks, tool calls with their
// kind, locations and diffs, plan updates from the todo tool, and usage. It remembers every tool
// call it announced, so `finish()` can close each one the turn left open (cancel, crash, a retried
// attempt): in the editor no tool call spins forever.
import { readFileSync, statSync } from "node:fs";
import type { SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { type HostEvent, type TurnChange, TurnView } from "@iris/host";
import { describeToolCall, toolKindOf } from "./tool-calls.js";

/** Most characters of a tool result shown under the call in the editor. */
const RESULT_PREVIEW_CHARS = 4000;
/** Largest file read for a write_file diff's "before" side. */
const DIFF_OLD_CAP_BYTES = 256 * 1024;

type CallState = { status: "pending" | "in_progress"; name: string; stepId: number };

export class TurnUpdates {
  /** The shared turn view (host): what each event changed; this class words it for the editor. */
  private readonly view = new TurnView();
  private readonly open = new Map<string, CallState>();
  private stepId = 0;

  constructor(
    private readonly cwd: string,
    private readonly contextWindow: () => number,
    /** The session's spend so far (USD), when known. */
    private readonly costUsd: () => Promise<number | undefined> = async () => undefined,
    /** Whether the turn was cancelled: a call that ends then was cut short, whatever it returned. */
    private readonly cancelled: () => boolean = () => false,
  ) {}

  /**
   * Every update this event becomes (none for events the editor has no use for). A model call's
   * usage reads the session's spend from the store: that one comes as a promise.
   */
  map(event: HostEvent): SessionUpdate[] | Promise<SessionUpdate[]> {
    const change = this.view.apply(event);
    // A subagent's chatter stays out of the editor's main thread (its tool calls show as one call).
    if (!change || change.kind === "subagent") return [];
    switch (change.kind) {
      case "text":
        return [chunk("agent_message_chunk", change.delta)];
      case "reasoning":
        return [chunk("agent_thought_chunk", change.delta)];
      case "step":
        this.stepId = change.stepId;
        return [];
      case "reset":
        return [
          ...this.closeWhere((c) => c.stepId === change.stepId, "the reply was cut off and retried"),
          chunk("agent_message_chunk", "\n\n[the reply was cut off; retrying]\n\n"),
        ];
      case "tool":
        return change.phase === "generated"
          ? [this.announce(change.call.callId, change.call.name, change.call.argumentsJson ?? "{}")]
          : this.progress(change);
      case "usage": {
        const used = change.call.inputTokens + change.call.outputTokens;
        const size = this.contextWindow();
        return this.costUsd().then((cost) => [
          {
            sessionUpdate: "usage_update",
            used,
            size,
            ...(cost !== undefined ? { cost: { amount: cost, currency: "USD" } } : {}),
          },
        ]);
      }
      case "notice":
        return change.level === "info"
          ? []
          : [
              {
                sessionUpdate: "notice",
                severity: change.level === "warn" ? "warning" : "error",
                title: change.message,
              },
            ];
      default:
        return [];
    }
  }

  private announce(callId: string, name: string, argumentsJson: string): SessionUpdate {
    const view = describeToolCall(name, argumentsJson, this.cwd, readOld);
    this.open.set(callId, { status: "pending", name, stepId: this.stepId });
    return {
      sessionUpdate: "tool_call",
      toolCallId: callId,
      title: view.title,
      kind: view.kind,
      status: "pending",
      locations: view.locations,
      content: view.diffs.map((d) => ({ type: "diff", ...d })),
      rawInput: view.rawInput,
    };
  }

  private progress(change: Extract<TurnChange, { kind: "tool" }>): SessionUpdate[] {
    const { call, phase } = change;
    const out: SessionUpdate[] = [];
    if (!this.open.has(call.callId) && phase !== "after")
      out.push(this.announce(call.callId, call.name, "{}"));
    if (phase === "before") {
      this.open.set(call.callId, { ...(this.open.get(call.callId) as CallState), status: "in_progress" });
      out.push({ sessionUpdate: "tool_call_update", toolCallId: call.callId, status: "in_progress" });
    } else if (phase === "after") {
      this.open.delete(call.callId);
      const text = change.result ?? "";
      out.push({
        sessionUpdate: "tool_call_update",
        toolCallId: call.callId,
        status: change.isError || this.cancelled() ? "failed" : "completed",
        ...(text ? { content: [textContent(clip(text))] } : {}),
        rawOutput: { content: clip(text), isError: change.isError === true },
      });
      if (call.name === "todo" && !change.isError) {
        const plan = planOf(text);
        if (plan) out.push(plan);
      }
    }
    return out;
  }

  /** Closes the calls the turn left open as failed, saying why (the turn's end closes them all). */
  finish(why: string): SessionUpdate[] {
    return this.closeWhere(() => true, why);
  }

  private closeWhere(pick: (c: CallState) => boolean, why: string): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    for (const [id, c] of this.open) {
      if (!pick(c)) continue;
      this.open.delete(id);
      out.push({
        sessionUpdate: "tool_call_update",
        toolCallId: id,
        status: "failed",
        content: [textContent(`not completed: ${why}`)],
      });
    }
    return out;
  }

  get openCalls(): number {
    return this.open.size;
  }
}

function chunk(kind: "agent_message_chunk" | "agent_thought_chunk", text: string): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text } };
}

function textContent(text: string) {
  return { type: "content" as const, content: { type: "text" as const, text } };
}

function clip(text: string): string {
  return text.length > RESULT_PREVIEW_CHARS
    ? `${text.slice(0, RESULT_PREVIEW_CHARS)}\n[… ${text.length - RESULT_PREVIEW_CHARS} more characters]`
    : text;
}

function readOld(path: string): string | undefined {
  try {
    if (statSync(path).size > DIFF_OLD_CAP_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

const PLAN_STATUS = {
  pending: "pending",
  in_progress: "in_progress",
  done: "completed",
  cancelled: "completed",
} as const;

/** The todo tool's result (`{todos:[…]}`) as an ACP plan: the editor shows the whole list each time. */
export function planOf(result: string): SessionUpdate | undefined {
  try {
    const parsed = JSON.parse(result) as { todos?: { content?: unknown; status?: unknown }[] };
    if (!Array.isArray(parsed.todos)) return undefined;
    return {
      sessionUpdate: "plan",
      entries: parsed.todos.map((t) => ({
        content: `${String(t.content ?? "")}${t.status === "cancelled" ? " (cancelled)" : ""}`,
        priority: "medium",
        status: PLAN_STATUS[t.status as keyof typeof PLAN_STATUS] ?? "pending",
      })),
    };
  } catch {
    return undefined;
  }
}

export { toolKindOf };
