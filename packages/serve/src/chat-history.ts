// Chat Completions messages → the canonical conversation (SPEC E3). System and developer messages
// become the client's instructions (they follow Iris's frozen prompt); tool messages must answer
// a call of the assistant message before them, as OpenAI itself requires.
import type { AssistantPart, ImagePart, Message, ToolResultMessage, UserMessage, UserPart } from "@iris/llm";
import type { ChatMessage } from "./chat-schema.js";
import { badRequest } from "./errors.js";
import { withoutProgressBlocks } from "./progress-strip.js";

export interface ClientHistory {
  /** System/developer text, joined. */
  instructions: string;
  /** Every message but the last user message. */
  history: Message[];
  /** The new user message; null when the request answers tool calls (the turn continues). */
  input: UserMessage | null;
  /** The trailing tool messages of a continuation (what a stored session appends). */
  answers: ToolResultMessage[];
}

const CLIENT_ORIGIN = { provider: "client", apiMode: "chat_completions", model: "client" } as const;
const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

export function textOfContent(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("");
}

function userParts(m: Extract<ChatMessage, { role: "user" }>): string | UserPart[] {
  if (typeof m.content === "string") return m.content;
  return m.content.map((p) =>
    p.type === "text" ? { type: "text", text: p.text } : imageOf(p.image_url.url),
  );
}

function imageOf(url: string): ImagePart {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data) return { type: "image", mediaType: data[1] ?? "image/png", data: data[2] ?? "" };
  const ext = /\.(png|jpe?g|gif|webp)(?:\?|$)/i.exec(url)?.[1]?.toLowerCase();
  return { type: "image", mediaType: `image/${ext === "jpg" ? "jpeg" : (ext ?? "png")}`, url };
}

export function convertChatMessages(messages: readonly ChatMessage[]): ClientHistory {
  const instructions: string[] = [];
  const out: Message[] = [];
  /** Calls of the last assistant message not answered yet: id → tool name. */
  let pending = new Map<string, string>();
  let pendingAt = -1;
  messages.forEach((m, i) => {
    if (m.role === "system" || m.role === "developer") {
      instructions.push(textOfContent(m.content));
      return;
    }
    if (m.role === "tool") {
      const name = pending.get(m.tool_call_id);
      if (name === undefined)
        throw badRequest(
          `messages[${i}]: a tool message answers no call of the assistant message before it (tool_call_id ${JSON.stringify(m.tool_call_id)})`,
          `messages[${i}].tool_call_id`,
        );
      pending.delete(m.tool_call_id);
      out.push({
        role: "tool",
        callId: m.tool_call_id,
        toolName: name,
        content: textOfContent(m.content),
        isError: false,
      });
      return;
    }
    if (pending.size > 0)
      throw badRequest(
        `messages[${pendingAt}]: an assistant message with tool_calls must be followed by tool messages answering each call (missing: ${[...pending.keys()].join(", ")})`,
        `messages[${pendingAt}].tool_calls`,
      );
    if (m.role === "user") {
      out.push({ role: "user", content: userParts(m), ...(m.name ? { name: m.name } : {}) });
      return;
    }
    const parts: AssistantPart[] = [];
    const text = withoutProgressBlocks(textOfContent(m.content));
    if (text) parts.push({ type: "text", text });
    for (const c of m.tool_calls ?? [])
      parts.push({
        type: "toolCall",
        callId: c.id,
        name: c.function.name,
        argumentsJson: c.function.arguments,
      });
    pending = new Map((m.tool_calls ?? []).map((c) => [c.id, c.function.name]));
    pendingAt = i;
    out.push({
      role: "assistant",
      parts,
      origin: CLIENT_ORIGIN,
      usage: ZERO,
      stopReason: pending.size ? "tool_calls" : "end",
    });
  });
  const last = out.at(-1);
  if (!last) throw badRequest("messages: at least one user message is needed", "messages");
  if (last.role === "assistant")
    throw badRequest(
      "messages: the last message must be from the user, or tool results answering the assistant's calls",
      `messages[${messages.length - 1}].role`,
    );
  if (pending.size > 0)
    throw badRequest(
      `messages[${pendingAt}]: tool calls without a tool message: ${[...pending.keys()].join(", ")}`,
      `messages[${pendingAt}].tool_calls`,
    );
  if (last.role === "user")
    return { instructions: instructions.join("\n\n"), history: out.slice(0, -1), input: last, answers: [] };
  let start = out.length;
  while (start > 0 && out[start - 1]?.role === "tool") start--;
  return {
    instructions: instructions.join("\n\n"),
    history: out,
    input: null,
    answers: out.slice(start) as ToolResultMessage[],
  };
}

/**
 * What a request to a stored session adds: its trailing tool messages (answers to the session's
 * open calls), or else its last message, which must be the user's. Earlier messages are the
 * client's copy of what the session already holds.
 */
export function trailingTurn(messages: readonly ChatMessage[]): {
  input: UserMessage | null;
  answers: { callId: string; content: string }[];
} {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === "tool") start--;
  if (start < messages.length)
    return {
      input: null,
      answers: messages.slice(start).map((m) => ({
        callId: m.role === "tool" ? m.tool_call_id : "",
        content: textOfContent(m.content),
      })),
    };
  const last = messages.at(-1);
  if (last?.role !== "user")
    throw badRequest(
      "messages: the last message must be from the user, or tool results answering the assistant's calls",
      `messages[${messages.length - 1}].role`,
    );
  return {
    input: { role: "user", content: userParts(last), ...(last.name ? { name: last.name } : {}) },
    answers: [],
  };
}
