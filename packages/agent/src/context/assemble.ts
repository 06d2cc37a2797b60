// Putting head, summary and tail back together (SPEC C3): the summary's role comes from its
// neighbours, never two same-role messages in a row; orphans are repaired afterwards.
import { type AssistantMessage, type Message, type Origin, ZERO_USAGE } from "@iris/llm";
import { repairOrphans } from "./orphans.js";

export const SUMMARY_ORIGIN: Origin = {
  provider: "iris",
  apiMode: "chat_completions",
  model: "context-summary",
};

type Role = "user" | "assistant";

function assistantWith(text: string, origin: Origin): AssistantMessage {
  return {
    role: "assistant",
    parts: [{ type: "text", text }],
    origin,
    usage: { ...ZERO_USAGE },
    stopReason: "end",
  };
}

/**
 * After a user message the summary is an assistant message; after an assistant message or a tool
 * result, a user message; with nothing before it, a user message. If that collides with the next
 * message the other role is tried; if both collide, the summary is prepended to the next message.
 */
export function chooseSummaryRole(prev: Message | undefined, next: Message | undefined): Role | "merge" {
  const first: Role = prev?.role === "user" ? "assistant" : "user";
  const second: Role = first === "user" ? "assistant" : "user";
  const clashes = (role: Role): boolean => (prev !== undefined && prev.role === role) || next?.role === role;
  // A history must not start with an assistant message (Anthropic, Gemini).
  const allowed = (role: Role): boolean => !clashes(role) && (prev !== undefined || role === "user");
  if (allowed(first)) return first;
  if (allowed(second)) return second;
  return "merge";
}

function prependText(message: Message, text: string): Message {
  if (message.role === "assistant") return { ...message, parts: [{ type: "text", text }, ...message.parts] };
  if (message.role === "user") {
    const content =
      typeof message.content === "string"
        ? `${text}\n\n${message.content}`
        : [{ type: "text" as const, text: `${text}\n\n` }, ...message.content];
    return { ...message, content };
  }
  return message; // never reached: the tail never starts with a tool result
}

export interface Assembled {
  messages: Message[];
  summaryIndex: number;
  summaryRole: Role | "merged";
  stubbed: string[];
  removed: string[];
}

export function assemble(
  head: readonly Message[],
  summaryText: string,
  tail: readonly Message[],
  origin: Origin = SUMMARY_ORIGIN,
): Assembled {
  const prev = head[head.length - 1];
  const next = tail[0];
  const role = chooseSummaryRole(prev, next);
  let joined: Message[];
  let summary: Message;
  if (role === "merge" && next) {
    summary = prependText(next, summaryText);
    joined = [...head, summary, ...tail.slice(1)];
  } else {
    summary =
      role === "assistant" ? assistantWith(summaryText, origin) : { role: "user", content: summaryText };
    joined = [...head, summary, ...tail];
  }
  const repaired = repairOrphans(joined);
  const summaryIndex = repaired.messages.indexOf(summary);
  return {
    messages: repaired.messages,
    summaryIndex,
    summaryRole: role === "merge" ? "merged" : role,
    stubbed: repaired.stubbed,
    removed: repaired.removed,
  };
}
