// Canonical history → Responses `input` items. Every item leaves through the allowlist.
import type { AssistantMessage, Message, ToolResultMessage, UserMessage, UserPart } from "../../types.js";
import { allowlisted } from "./allowlist.js";

type Item = Record<string, unknown>;

function userContent(parts: string | UserPart[], name: string | undefined): Item[] {
  const list: UserPart[] = typeof parts === "string" ? [{ type: "text", text: parts }] : parts;
  const out: Item[] = [];
  let prefixed = name === undefined;
  for (const p of list) {
    if (p.type === "text") {
      out.push({ type: "input_text", text: prefixed ? p.text : `${name}: ${p.text}` });
      prefixed = true;
    } else {
      const url = p.url ?? `data:${p.mediaType};base64,${p.data ?? ""}`;
      out.push({ type: "input_image", image_url: url });
    }
  }
  if (!prefixed) out.unshift({ type: "input_text", text: `${name}:` });
  return out;
}

function userItem(m: UserMessage): Item {
  return { type: "message", role: "user", content: userContent(m.content, m.name) };
}

/** Call ids as the wire knows them, so a result pairs with the id its call was sent under. */
export type CallIdMap = Map<string, string>;

function assistantItems(m: AssistantMessage, callIds: CallIdMap): Item[] {
  const items: Item[] = [];
  let text: Item[] | undefined; // consecutive text parts share one message item
  for (const part of m.parts) {
    if (part.type === "text") {
      if (part.text === "") continue;
      if (!text) {
        text = [];
        items.push({ type: "message", role: "assistant", content: text });
      }
      text.push({ type: "output_text", text: part.text });
      continue;
    }
    text = undefined;
    if (part.type === "reasoning") {
      // Only a reasoning item this API produced can go back, and only with its encrypted_content:
      // with store:false the server cannot look a bare id up and rejects the request.
      const raw = part.raw;
      if (
        m.origin.apiMode === "responses" &&
        raw?.["type"] === "reasoning" &&
        typeof raw["encrypted_content"] === "string"
      ) {
        items.push(raw);
      }
    } else {
      const wireId = part.providerIds?.callId ?? part.callId;
      callIds.set(part.callId, wireId);
      const itemId = m.origin.apiMode === "responses" ? part.providerIds?.itemId : undefined;
      items.push({
        type: "function_call",
        call_id: wireId,
        name: part.name,
        arguments: part.argumentsJson,
        ...(itemId ? { id: itemId } : {}),
      });
    }
  }
  return items;
}

function toolResultItem(m: ToolResultMessage, callIds: CallIdMap): Item {
  const callId = callIds.get(m.callId) ?? m.callId;
  const output =
    typeof m.content === "string" || m.content.every((p) => p.type === "text")
      ? typeof m.content === "string"
        ? m.content
        : m.content.map((p) => (p.type === "text" ? p.text : "")).join("")
      : userContent(m.content, undefined);
  return { type: "function_call_output", call_id: callId, output };
}

export function convertInput(messages: readonly Message[]): Item[] {
  const callIds: CallIdMap = new Map();
  const items: Item[] = [];
  for (const m of messages) {
    if (m.role === "user") items.push(userItem(m));
    else if (m.role === "assistant") items.push(...assistantItems(m, callIds));
    else items.push(toolResultItem(m, callIds));
  }
  return items.map(allowlisted);
}
