// Message builders shared by this folder's tests (not exported from the package).
import type { AssistantMessage, Message, Runtime, ToolResultMessage, UserMessage } from "@iris/llm";
import { ZERO_USAGE } from "@iris/llm";

export const ORIGIN = { provider: "fake", apiMode: "chat_completions" as const, model: "m" };

export function user(text: string): UserMessage {
  return { role: "user", content: text };
}

export function assistant(text: string): AssistantMessage {
  return {
    role: "assistant",
    parts: [{ type: "text", text }],
    origin: ORIGIN,
    usage: { ...ZERO_USAGE },
    stopReason: "end",
  };
}

export function call(callId: string, name: string, args: unknown): AssistantMessage {
  return {
    role: "assistant",
    parts: [{ type: "toolCall", callId, name, argumentsJson: JSON.stringify(args) }],
    origin: ORIGIN,
    usage: { ...ZERO_USAGE },
    stopReason: "tool_calls",
  };
}

export function result(
  callId: string,
  toolName: string,
  content: string,
  isError = false,
): ToolResultMessage {
  return { role: "tool", callId, toolName, content, isError };
}

/** ASCII text of about `tokens` estimated tokens ("word " ≈ 1 token each). */
export function wordsOf(tokens: number, word = "data"): string {
  return Array.from({ length: tokens }, (_, i) => `${word}${i % 10}`).join(" ");
}

/** A realistic round: the user asks, the agent calls a tool, gets a result, answers. */
export function round(i: number, outputTokens = 50): Message[] {
  const id = `c${i}`;
  return [
    user(`step ${i}: please run the tests`),
    call(id, "terminal", { command: `npm test -- ${i}` }),
    result(id, "terminal", `run ${i}\n${wordsOf(outputTokens)}\nexit code: ${i % 2}`),
    assistant(`round ${i} done`),
  ];
}

export function fakeRuntime(baseUrl: string): Runtime {
  return {
    provider: "fake",
    apiMode: "chat_completions",
    baseUrl,
    model: "m",
    headers: {},
    compat: { auth: "bearer" },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "none",
    },
  };
}

/** Every call has its result right after its call group, and every result its call. */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (!open.delete(m.callId)) problems.push(`result ${m.callId} at ${i} has no call`);
      continue;
    }
    for (const id of open) problems.push(`call ${id} has no result before ${i}`);
    open = new Set(
      m.role === "assistant" ? m.parts.flatMap((p) => (p.type === "toolCall" ? [p.callId] : [])) : [],
    );
  }
  for (const id of open) problems.push(`call ${id} has no result at the end`);
  return problems;
}

export function sameRoleNeighbours(messages: readonly Message[]): number[] {
  const at: number[] = [];
  for (let i = 1; i < messages.length; i++) {
    const a = messages[i - 1]?.role;
    const b = messages[i]?.role;
    if (a === b && a !== "tool") at.push(i);
  }
  return at;
}
