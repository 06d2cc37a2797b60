// A seeded generator of stored histories for property-style shaping tests: what the store may
// really hold after model switches, crashes and old bugs (test-only).
import type { AssistantPart, Message, Origin, ToolCallPart, UserPart } from "../../types.js";
import { asst, reasoningOf } from "./build.js";

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const chance = (rand: Rand, p: number) => rand() < p;
const int = (rand: Rand, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

/** How each route names its calls. */
type IdStyle = "openai-chat" | "responses" | "anthropic" | "reused" | "composite";

export const GEN_ROUTES: readonly (Origin & { ids: IdStyle })[] = [
  { provider: "openai", apiMode: "responses", model: "gpt-5", ids: "responses" },
  { provider: "openai", apiMode: "chat_completions", model: "gpt-4.1", ids: "openai-chat" },
  { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-sonnet-4-5", ids: "anthropic" },
  { provider: "deepseek", apiMode: "chat_completions", model: "deepseek-reasoner", ids: "openai-chat" },
  { provider: "vllm", apiMode: "responses", model: "qwen3", ids: "responses" },
  { provider: "llamacpp", apiMode: "chat_completions", model: "local", ids: "reused" },
  { provider: "openrouter", apiMode: "chat_completions", model: "mix", ids: "composite" },
];

export const GEN_TOOLS = ["read", "write", "search", "shot"] as const;
const NAMES = ["ann", "bob", "민지"];
const TEXTS = ["hello", "look at this", "올해 기준으로", "x".repeat(300), "", "여러 줄\n텍스트"];

const image = (rand: Rand): UserPart =>
  chance(rand, 0.5)
    ? { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }
    : { type: "image", mediaType: "image/jpeg", url: "https://img.test/photo.jpg" };

function userContent(rand: Rand): string | UserPart[] {
  if (!chance(rand, 0.3)) return pick(rand, TEXTS);
  const parts: UserPart[] = [];
  for (let i = int(rand, 1, 3); i > 0; i--)
    parts.push(chance(rand, 0.5) ? image(rand) : { type: "text", text: pick(rand, TEXTS) });
  return parts;
}

function callFor(route: (typeof GEN_ROUTES)[number], n: number, k: number, rand: Rand): ToolCallPart {
  const name = pick(rand, GEN_TOOLS);
  const args = chance(rand, 0.1) ? "{not json" : JSON.stringify({ n });
  const base = { type: "toolCall" as const, name, argumentsJson: args };
  switch (route.ids) {
    case "responses":
      return { ...base, callId: `call_${n}`, providerIds: { callId: `call_${n}`, itemId: `fc_${n}` } };
    case "anthropic":
      return { ...base, callId: `toolu_${n}`, providerIds: { callId: `toolu_${n}` } };
    case "reused": // local servers number calls per response: call_0 again and again
      return { ...base, callId: `call_${k}`, providerIds: { callId: `call_${k}` } };
    case "composite":
      return { ...base, callId: `call_${n}|fc_${n}`, providerIds: { callId: `call_${n}|fc_${n}` } };
    default:
      return chance(rand, 0.05)
        ? { ...base, callId: "" }
        : { ...base, callId: `call_${n}`, providerIds: { callId: `call_${n}` } };
  }
}

/**
 * Where signed reasoning was issued: the server under test (blobs it signed) or, half of the
 * time, an account elsewhere whose blobs that server must never see.
 */
export interface Issuer {
  issuer: string;
  issue(kind: "encrypted_content" | "signature", text: string): string;
}
export const ELSEWHERE = "https://elsewhere.test/v1";

function signed(part: AssistantPart, rand: Rand, issuer: Issuer | undefined): AssistantPart {
  if (!issuer || part.type !== "reasoning" || !part.raw) return part;
  if (chance(rand, 0.5)) return { ...part, issuer: ELSEWHERE };
  const raw = { ...part.raw };
  if (raw["type"] === "thinking") raw["signature"] = issuer.issue("signature", String(raw["thinking"]));
  else if (typeof raw["encrypted_content"] === "string")
    raw["encrypted_content"] = issuer.issue("encrypted_content", part.text);
  return { ...part, raw, issuer: issuer.issuer };
}

function reasoningFor(route: Origin, n: number, rand: Rand, issuer?: Issuer): AssistantPart[] {
  return reasoningParts(route, n, rand).map((p) => signed(p, rand, issuer));
}

function reasoningParts(route: Origin, n: number, rand: Rand): AssistantPart[] {
  if (!chance(rand, 0.6)) return [];
  if (route.apiMode === "chat_completions") return [reasoningOf("plain", n)];
  if (route.provider === "vllm") {
    // vLLM's own shape: content filled, no encrypted_content (OpenAI rejects it, vLLM needs it).
    const raw = {
      type: "reasoning",
      id: `rs_${n}`,
      status: "completed",
      summary: [],
      content: [{ type: "reasoning_text", text: "t" }],
    };
    return [{ type: "reasoning", text: "t", raw }];
  }
  return [reasoningOf(route.apiMode, n)];
}

/** One stored history. `counter` keeps provider ids unique across a whole history (and its originals). */
export function randomHistory(rand: Rand, counter = { n: 0 }, issuer?: Issuer): Message[] {
  const out: Message[] = [];
  for (let turn = int(rand, 1, 6); turn > 0; turn--) {
    for (let u = chance(rand, 0.25) ? int(rand, 2, 3) : 1; u > 0; u--) {
      const content = userContent(rand);
      out.push(
        chance(rand, 0.4) ? { role: "user", content, name: pick(rand, NAMES) } : { role: "user", content },
      );
    }
    for (let round = int(rand, 1, 4); round > 0; round--) {
      const route = pick(rand, GEN_ROUTES);
      const origin: Origin = { provider: route.provider, apiMode: route.apiMode, model: route.model };
      const parts: AssistantPart[] = reasoningFor(route, counter.n, rand, issuer);
      if (chance(rand, 0.5)) parts.push({ type: "text", text: pick(rand, TEXTS) });
      const calls: ToolCallPart[] = [];
      for (let k = 0, count = chance(rand, 0.7) ? int(rand, 1, 3) : 0; k < count; k++) {
        calls.push(callFor(route, ++counter.n, k, rand));
        if (route.apiMode !== "chat_completions" && k + 1 < count && chance(rand, 0.3))
          parts.push(...reasoningFor(route, counter.n, rand, issuer));
      }
      parts.push(...calls);
      out.push(asst(origin, ...parts));
      const answered = calls.filter(() => !chance(rand, 0.1)); // interrupted: results never stored
      if (chance(rand, 0.3)) answered.reverse();
      for (const c of answered) {
        const notExecuted = chance(rand, 0.15) ? "turn budget reached" : undefined;
        out.push({
          role: "tool",
          callId: c.callId,
          toolName: c.name,
          content: chance(rand, 0.2)
            ? [{ type: "text", text: "screenshot" }, image(rand)]
            : `out ${c.callId}`,
          isError: notExecuted !== undefined || chance(rand, 0.1),
          ...(notExecuted ? { notExecuted } : {}),
        });
      }
      if (chance(rand, 0.05))
        out.push({
          role: "tool",
          callId: `ghost_${counter.n}`,
          toolName: "read",
          content: "?",
          isError: false,
        });
      if (calls.length === 0) break;
    }
  }
  return out;
}

/** A server-side compaction node: readable only by the route that made it (OpenAI Responses). */
export const COMPACTION_ORIGIN: Origin = { provider: "openai", apiMode: "responses", model: "gpt-5" };

export function compactionNode(id: string): Message {
  return asst(
    COMPACTION_ORIGIN,
    { type: "reasoning", text: "", raw: { type: "compaction", id, encrypted_content: `blob_${id}` } },
    { type: "text", text: `[summary of ${id}]` },
  );
}

export function compactionId(m: Message): string | undefined {
  if (m.role !== "assistant") return undefined;
  const raw = m.parts[0]?.type === "reasoning" ? m.parts[0].raw : undefined;
  return raw?.["type"] === "compaction" ? String(raw["id"]) : undefined;
}

/**
 * A stored path that may start with compaction nodes: their originals (which may start with
 * another compaction node, or point back in a cycle as damaged pointers do) live in `originals`.
 */
export function randomStoredPath(
  rand: Rand,
  issuer?: Issuer,
): { history: Message[]; originals: Map<string, Message[]> } {
  const counter = { n: 0 };
  const originals = new Map<string, Message[]>();
  let history = randomHistory(rand, counter, issuer);
  for (let depth = chance(rand, 0.35) ? int(rand, 1, 3) : 0, i = 0; i < depth; i++) {
    const id = `cmp_${i}`;
    originals.set(id, history);
    history = [compactionNode(id), ...randomHistory(rand, counter, issuer)];
  }
  if (originals.size > 0 && chance(rand, 0.2)) {
    // A damaged pointer: the oldest originals start with the newest compaction again.
    const oldest = originals.get("cmp_0") ?? [];
    originals.set("cmp_0", [compactionNode(`cmp_${originals.size - 1}`), ...oldest]);
  }
  return { history, originals };
}
