// Canonical history → Anthropic `messages`: content blocks, tool results inside user turns,
// and never two turns of the same role in a row (they are merged, SPEC H2).
import type { AssistantMessage, Message, ToolResultMessage, UserPart } from "../../types.js";

export type Block = Record<string, unknown>;
export interface Turn {
  role: "user" | "assistant";
  content: Block[];
}

function imageBlock(p: Extract<UserPart, { type: "image" }>): Block {
  const source = p.url
    ? { type: "url", url: p.url }
    : { type: "base64", media_type: p.mediaType, data: p.data ?? "" };
  return { type: "image", source };
}

/** Text and image blocks; a speaker name goes in front of the text (Anthropic has no name field). */
function userBlocks(content: string | UserPart[], name: string | undefined): Block[] {
  const parts: UserPart[] = typeof content === "string" ? [{ type: "text", text: content }] : content;
  const blocks: Block[] = [];
  let named = name === undefined;
  for (const p of parts) {
    if (p.type === "image") {
      blocks.push(imageBlock(p));
    } else if (p.text !== "" || !named) {
      blocks.push({ type: "text", text: named ? p.text : `${name}: ${p.text}` });
      named = true;
    }
  }
  if (!named) blocks.unshift({ type: "text", text: `${name}:` });
  return blocks;
}

// Anthropic tool_use ids must match ^[a-zA-Z0-9_-]+$; ids from other formats may not.
function wireCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function parseInput(json: string): unknown {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function assistantBlocks(m: AssistantMessage, callIds: Map<string, string>): Block[] {
  const blocks: Block[] = [];
  for (const part of m.parts) {
    if (part.type === "text") {
      if (part.text !== "") blocks.push({ type: "text", text: part.text });
    } else if (part.type === "reasoning") {
      // A thinking block goes back byte for byte (its signature covers it); others are dropped.
      const t = part.raw?.["type"];
      if (part.raw && (t === "thinking" || t === "redacted_thinking")) blocks.push(part.raw);
    } else {
      const id = wireCallId(part.providerIds?.callId ?? part.callId);
      callIds.set(part.callId, id);
      blocks.push({ type: "tool_use", id, name: part.name, input: parseInput(part.argumentsJson) });
    }
  }
  return blocks;
}

function toolResultBlock(m: ToolResultMessage, callIds: Map<string, string>): Block {
  const content =
    typeof m.content === "string"
      ? m.content
      : m.content.map((p) => (p.type === "text" ? { type: "text", text: p.text } : imageBlock(p)));
  return {
    type: "tool_result",
    tool_use_id: callIds.get(m.callId) ?? wireCallId(m.callId),
    content,
    ...(m.isError ? { is_error: true } : {}),
  };
}

export function convertMessages(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  const callIds = new Map<string, string>();
  const add = (role: Turn["role"], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "user") add("user", userBlocks(m.content, m.name));
    else if (m.role === "assistant") add("assistant", assistantBlocks(m, callIds));
    else add("user", [toolResultBlock(m, callIds)]);
  }
  return turns;
}
