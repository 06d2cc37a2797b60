// Anthropic's prompt cache by blocks, as documented: each `cache_control` marker writes an entry
// for the prompt up to and including its block (tools, then system, then messages); a marker
// reads the longest earlier entry at its own block or at most LOOKBACK_BLOCKS blocks before it.
// An entry further back is not found, so a round with many blocks misses unless a marker sits
// near the previous request's entry. Markers themselves are not part of what is cached. A Chat
// Completions body for a Claude model behind an aggregator is read as the blocks it becomes
// upstream: content parts, one tool_use per call, one tool_result per tool message.
import { createHash } from "node:crypto";
import { isObject, type Json } from "../validate/rule.js";

export const LOOKBACK_BLOCKS = 20;
const REMEMBERED_ENTRIES = 4_096;

interface Flat {
  /** Prefix hash through block i. */
  hashes: string[];
  /** Prefix size in characters through block i. */
  sizes: number[];
  markers: number[];
}

function withoutMarker(block: unknown): unknown {
  if (!isObject(block) || !("cache_control" in block)) return block;
  const { cache_control: _marker, ...rest } = block;
  return rest;
}

type Add = (where: string, block: unknown) => void;

function addContent(add: Add, where: string, content: unknown): void {
  if (typeof content === "string") add(where, { type: "text", text: content });
  else for (const b of Array.isArray(content) ? content : []) add(where, b);
}

function addAnthropic(body: Json, add: Add): void {
  for (const tool of Array.isArray(body.tools) ? body.tools : []) add("tool", tool);
  addContent(add, "system", body.system);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m: unknown, i) => {
    if (isObject(m)) addContent(add, `${i}:${String(m.role)}`, m.content);
  });
}

function addChat(body: Json, add: Add): void {
  for (const tool of Array.isArray(body.tools) ? body.tools : []) add("tool", tool);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m: unknown, i) => {
    if (!isObject(m)) return;
    const where = `${i}:${String(m.role)}`;
    if (m.content !== null) addContent(add, where, m.content);
    for (const call of Array.isArray(m.tool_calls) ? m.tool_calls : []) add(where, { tool_use: call });
  });
}

function flatten(body: Json, chat: boolean): Flat {
  const blocks: { canonical: string; marked: boolean }[] = [];
  const add: Add = (where, block) => {
    blocks.push({
      canonical: JSON.stringify([where, withoutMarker(block)]),
      marked: isObject(block) && block.cache_control !== undefined,
    });
  };
  if (chat) addChat(body, add);
  else addAnthropic(body, add);
  // What else changes the cached prompt: the model, thinking settings and the tool choice.
  let hash = JSON.stringify([body.model, body.thinking ?? null, body.tool_choice ?? null]);
  let size = 0;
  const flat: Flat = { hashes: [], sizes: [], markers: [] };
  blocks.forEach((b, i) => {
    hash = createHash("sha256").update(hash).update(b.canonical).digest("hex");
    size += b.canonical.length;
    flat.hashes.push(hash);
    flat.sizes.push(size);
    if (b.marked) flat.markers.push(i);
  });
  return flat;
}

export class AnthropicCache {
  private readonly entries = new Set<string>();

  /** The share of the prompt read from the cache (0–1), then the entries this request writes. */
  account(body: Json, chat = false): { readShare: number; marked: boolean } {
    const flat = flatten(body, chat);
    const total = flat.sizes.at(-1) ?? 0;
    let best = -1;
    for (const marker of flat.markers) {
      for (let j = marker; j >= Math.max(0, marker - LOOKBACK_BLOCKS); j--) {
        if (this.entries.has(flat.hashes[j] as string)) {
          best = Math.max(best, j);
          break;
        }
      }
    }
    for (const marker of flat.markers) this.remember(flat.hashes[marker] as string);
    const readShare = best >= 0 && total > 0 ? (flat.sizes[best] as number) / total : 0;
    return { readShare, marked: flat.markers.length > 0 };
  }

  private remember(hash: string): void {
    this.entries.delete(hash);
    this.entries.add(hash);
    if (this.entries.size > REMEMBERED_ENTRIES) {
      const oldest = this.entries.values().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
