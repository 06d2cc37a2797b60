// Tool definition → ToolSpec as the model sees it: JSON Schema draft 7 of the zod input type
// (defaulted fields are not required), without `$schema` and without zod's ±2^53 integer bounds,
// which only cost request bytes.
import type { ToolSpec } from "@iris/llm";
import { z } from "zod";
import type { ToolDefinition, ToolParameters } from "../define.js";
import { isJsonSchemaParameters } from "../json-schema/parameters.js";

const schemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

export function parametersSchema(schema: ToolParameters): Record<string, unknown> {
  if (isJsonSchemaParameters(schema)) return schema.schema;
  const cached = schemaCache.get(schema);
  if (cached) return cached;
  const json = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  const cleaned = stripSafeIntegerBounds(json) as Record<string, unknown>;
  schemaCache.set(schema, cleaned);
  return cleaned;
}

function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(value);
  }
  return out;
}

export function toToolSpec(def: ToolDefinition, description = def.description): ToolSpec {
  return { name: def.name, description, parameters: parametersSchema(def.parameters) };
}
