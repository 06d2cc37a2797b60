// Canonical history → Chat Completions `messages`.
import type { AssistantMessage, Message, ToolResultMessage, UserMessage, UserPart } from "../../types.js";
import { detailsOf } from "./reasoning-details.js";

export type WireContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

export type WireMessage = Record<string, unknown> & { role: "system" | "user" | "assistant" | "tool" };

export interface ConvertOptions {
  /** Send reasoning back as `reasoning_content` (compat.reasoningContent). */
  reasoningContent: boolean;
  /**
   * Every assistant message carries `reasoning_content`, a single space when its reasoning was
   * dropped (made by another provider) or empty: the route rejects it missing in a turn that
   * called tools, the final answer's included, and ignores it elsewhere.
   */
  reasoningContentOnToolTurns?: boolean;
  /** Send the upstream's reasoning items back as `reasoning_details` (compat.reasoningDetails). */
  reasoningDetails?: boolean;
}

function imageUrl(part: Extract<UserPart, { type: "image" }>): string {
  if (part.data !== undefined) return `data:${part.mediaType};base64,${part.data}`;
  if (part.url !== undefined) return part.url;
  throw new Error(`image part (${part.mediaType}) has neither data nor url`);
}

function userContent(content: string | UserPart[]): string | WireContentPart[] {
  if (typeof content === "string") return content;
  return content.map(
    (p): WireContentPart =>
      p.type === "text"
        ? { type: "text", text: p.text }
        : { type: "image_url", image_url: { url: imageUrl(p) } },
  );
}

/** OpenAI rejects any other `name` with a 400; such speakers are named in the text only. */
const WIRE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function convertUser(m: UserMessage): WireMessage {
  if (!m.name) return { role: "user", content: userContent(m.content) };
  // The speaker is always in the text too (as in the other formats): not every server passes
  // `name` to the model, and names like "민지" or "Ann Lee" cannot travel in that field.
  const prefix = `${m.name}: `;
  const first = typeof m.content === "string" ? undefined : m.content[0];
  const content =
    typeof m.content === "string"
      ? `${prefix}${m.content}`
      : first?.type === "text"
        ? userContent([{ type: "text", text: `${prefix}${first.text}` }, ...m.content.slice(1)])
        : userContent([{ type: "text", text: prefix.trim() }, ...m.content]);
  const out: WireMessage = { role: "user", content };
  if (WIRE_NAME.test(m.name)) out.name = m.name;
  return out;
}

function convertAssistant(
  m: AssistantMessage,
  opts: ConvertOptions,
  wireIds: Map<string, string>,
): WireMessage {
  const text: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Record<string, unknown>[] = [];
  for (const part of m.parts) {
    if (part.type === "text") text.push(part.text);
    else if (part.type === "reasoning") reasoning.push(part.text);
    else {
      const id = part.providerIds?.callId ?? part.callId;
      wireIds.set(part.callId, id);
      toolCalls.push({ id, type: "function", function: { name: part.name, arguments: part.argumentsJson } });
    }
  }
  const joined = text.join("");
  const out: WireMessage = {
    role: "assistant",
    content: joined === "" && toolCalls.length > 0 ? null : joined,
  };
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  const thought = reasoning.join("");
  if (opts.reasoningContent && thought !== "") out.reasoning_content = thought;
  else if (opts.reasoningContentOnToolTurns) out.reasoning_content = " ";
  const details = opts.reasoningDetails ? detailsOf(m.parts) : [];
  if (details.length > 0) out.reasoning_details = details;
  return out;
}

/**
 * Tool messages carry text only on this API: a result's images travel in one user message after
 * the batch of results (the API allows images only there), and the result's text says so.
 */
function toolResultText(m: ToolResultMessage): string {
  if (typeof m.content === "string") return m.content;
  return m.content
    .map((p) =>
      p.type === "text" ? p.text : `\n[image (${p.mediaType}): in the user message after the tool results]`,
    )
    .join("");
}

function toolImages(m: ToolResultMessage): UserPart[] {
  return typeof m.content === "string" ? [] : m.content.filter((p) => p.type === "image");
}

function convertToolResult(m: ToolResultMessage, wireIds: Map<string, string>): WireMessage {
  return { role: "tool", tool_call_id: wireIds.get(m.callId) ?? m.callId, content: toolResultText(m) };
}

export function convertMessages(
  system: string | undefined,
  messages: readonly Message[],
  opts: ConvertOptions,
): WireMessage[] {
  const out: WireMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  // Canonical callId → the id the provider gave the call, so results pair with their calls.
  const wireIds = new Map<string, string>();
  let images: UserPart[] = [];
  const flushImages = () => {
    if (images.length === 0) return;
    out.push({
      role: "user",
      content: userContent([{ type: "text", text: "Images from the tool results above:" }, ...images]),
    });
    images = [];
  };
  for (const m of messages) {
    if (m.role !== "tool") flushImages();
    if (m.role === "user") out.push(convertUser(m));
    else if (m.role === "assistant") out.push(convertAssistant(m, opts, wireIds));
    else {
      out.push(convertToolResult(m, wireIds));
      images.push(...toolImages(m));
    }
  }
  flushImages();
  return out;
}
