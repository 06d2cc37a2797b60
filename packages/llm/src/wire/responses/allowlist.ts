// The fields each input item type may carry when sent to the Responses API (SPEC H4). Items
// are stored exactly as received, and the response-only fields (status, …) must never go
// back, so every item passes through this one table on its way out.
type Item = Record<string, unknown>;

export const ITEM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  message: ["type", "role", "content"],
  reasoning: ["type", "id", "summary", "encrypted_content"],
  function_call: ["type", "id", "call_id", "name", "arguments"],
  function_call_output: ["type", "call_id", "output"],
};

/** Fields of nested entries: a reasoning summary, message content parts. */
const NESTED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  summary_text: ["type", "text"],
  input_text: ["type", "text"],
  input_image: ["type", "image_url", "detail"],
  output_text: ["type", "text"],
};

function pick(obj: Item, fields: readonly string[]): Item {
  const out: Item = {};
  for (const f of fields) if (obj[f] !== undefined && obj[f] !== null) out[f] = obj[f];
  return out;
}

function pickNested(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return entry;
    const e = entry as Item;
    const fields = typeof e["type"] === "string" ? NESTED_FIELDS[e["type"]] : undefined;
    return fields ? pick(e, fields) : e;
  });
}

/** The item with only its allowlisted fields; throws on an item type the table does not know. */
export function allowlisted(item: Item): Item {
  const type = item["type"];
  const fields = typeof type === "string" ? ITEM_FIELDS[type] : undefined;
  if (!fields) throw new Error(`responses: no field allowlist for input item type ${String(type)}`);
  const out = pick(item, fields);
  if (Array.isArray(out["summary"])) out["summary"] = pickNested(out["summary"]);
  if (Array.isArray(out["content"])) out["content"] = pickNested(out["content"]);
  if (Array.isArray(out["output"])) out["output"] = pickNested(out["output"]);
  if (type === "reasoning" && out["summary"] === undefined) out["summary"] = []; // required by the API
  return out;
}
