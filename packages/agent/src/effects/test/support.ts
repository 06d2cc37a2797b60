// A real temp store with a session whose last assistant message carries some tool calls.
import { join } from "node:path";
import type { AssistantMessage, ToolCallPart } from "@iris/llm";
import { ZERO_USAGE } from "@iris/llm";
import { openStore, type SqliteStore as Store } from "@iris/store";
import { tempDir } from "@iris/testkit";
import type { ToolBox, ToolRunContext, ToolTraits } from "../../ports.js";

export interface Fixture {
  store: Store;
  sessionId: string;
  cleanup(): void;
}

export async function storeFixture(): Promise<Fixture> {
  const dir = tempDir("iris-effects");
  const store = openStore(join(dir.path, "state.db"));
  const sessionId = (await store.createSession({ source: "test" })).id;
  await store.appendNode(sessionId, { kind: "message", message: { role: "user", content: "do things" } });
  return {
    store,
    sessionId,
    cleanup: async () => {
      await store.close();
      dir.cleanup();
    },
  };
}

export function call(callId: string, name: string, args: unknown): ToolCallPart {
  return { type: "toolCall", callId, name, argumentsJson: JSON.stringify(args) };
}

export function assistantWith(calls: ToolCallPart[]): AssistantMessage {
  return {
    role: "assistant",
    parts: calls,
    origin: { provider: "test", apiMode: "chat_completions", model: "m" },
    usage: ZERO_USAGE,
    stopReason: "tool_calls",
  };
}

/** Stores the assistant message (the checkpoint) and returns its node id. */
export async function checkpoint(f: Fixture, calls: ToolCallPart[]): Promise<string> {
  return (await f.store.appendNode(f.sessionId, { kind: "message", message: assistantWith(calls) })).id;
}

export function ctxFor(f: Fixture, assistantNodeId: string, stepId = 3): ToolRunContext {
  return {
    signal: new AbortController().signal,
    taskId: "task-1",
    sessionId: f.sessionId,
    cwd: "/",
    assistantNodeId,
    stepId,
    progress: () => {},
  };
}

const TRAITS: Record<string, ToolTraits> = {
  terminal: { effect: "mutate", parallelSafe: false, interactive: false },
  send_message: { effect: "communicate", parallelSafe: false, interactive: false },
  read_file: { effect: "read", parallelSafe: true, interactive: false },
};

/** A toolbox whose tools run the given function and count their runs. */
export function countingBox(
  impl: (call: ToolCallPart) => Promise<{ content: string; isError: boolean }>,
): ToolBox & { runs: string[] } {
  const runs: string[] = [];
  return {
    runs,
    specs: () => [],
    traits: (name) => TRAITS[name],
    // Like a real executing toolbox: the receipt gate is asked right before the tool runs.
    run: async (c, ctx) => {
      const gate = await ctx.beforeRun?.();
      if (gate && !gate.run) return gate.result;
      runs.push(c.callId);
      return impl(c);
    },
  };
}
