// The common stream chunk (a text or role delta, a finish reason, usage; no tools or reasoning)
// checked by hand: zod's parse of every chunk was the largest share of iris's own cost in a
// streamed reply (bench/serve.ts). Anything else returns undefined and goes through chunkSchema,
// which this must agree with: the fields read are the same, unknown fields are ignored by both.
import type { WireChunk } from "./schema.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const nullishOr = (v: unknown, type: "string" | "number") =>
  v === undefined || v === null || typeof v === type;
/** Delta fields this path does not handle: a value (not null) sends the chunk to zod. */
const OTHER_DELTA = ["reasoning_content", "reasoning", "reasoning_details", "refusal", "tool_calls"] as const;

const numbers = (o: Obj, keys: readonly string[]) => keys.every((k) => nullishOr(o[k], "number"));

/** A usage object of wireUsageSchema's shape (the reducer reads it only through mapUsage). */
function plainUsage(u: unknown): boolean {
  if (u === undefined || u === null) return true;
  if (
    !isObj(u) ||
    !numbers(u, ["prompt_tokens", "completion_tokens", "total_tokens", "prompt_cache_hit_tokens"])
  )
    return false;
  const { prompt_tokens_details: p, completion_tokens_details: c } = u;
  if (!(p === undefined || p === null || (isObj(p) && numbers(p, ["cached_tokens", "cache_write_tokens"]))))
    return false;
  return c === undefined || c === null || (isObj(c) && numbers(c, ["reasoning_tokens"]));
}

function plainChoice(c: unknown): boolean {
  if (!isObj(c) || !nullishOr(c.index, "number") || !nullishOr(c.finish_reason, "string")) return false;
  const d = c.delta;
  if (d === undefined || d === null) return true;
  if (!isObj(d) || !nullishOr(d.role, "string") || !nullishOr(d.content, "string")) return false;
  return OTHER_DELTA.every((k) => d[k] === undefined || d[k] === null);
}

/** `json` as a WireChunk when it is a plain chunk, else undefined (validate it with chunkSchema). */
export function plainChunk(json: unknown): WireChunk | undefined {
  if (!isObj(json) || json.error !== undefined || !plainUsage(json.usage)) return undefined;
  if (!nullishOr(json.id, "string") || !nullishOr(json.model, "string")) return undefined;
  const { choices } = json;
  if (choices !== undefined && choices !== null && !(Array.isArray(choices) && choices.every(plainChoice)))
    return undefined;
  // Checked above field by field: every field the reducer reads has chunkSchema's type.
  return json as WireChunk;
}
