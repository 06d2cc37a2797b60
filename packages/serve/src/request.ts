// Reading a request body: JSON first (a malformed body is a 400 saying so), then the zod schema
// (a 400 naming the field). Nesting beyond the bound is a 400 before anything walks it (a deep
// client tool schema would overflow the stack). Client tools are checked against Iris's own names.
import { jsonTooDeep, type ToolSpec } from "@iris/llm";
import type { Context } from "hono";
import type { z } from "zod";
import { badRequest, fromZod } from "./errors.js";

export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  const deep = jsonTooDeep(text);
  if (deep) throw badRequest(`the body is ${deep}`, null, "json_too_deep");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw badRequest(`the body is not valid JSON: ${(err as Error).message}`, null, "invalid_json");
  }
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw badRequest("the body must be a JSON object", null, "invalid_json");
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw fromZod(parsed.error, json);
  return parsed.data;
}

export function clientToolSpecs(
  tools: readonly {
    name: string;
    description?: string | undefined;
    parameters?: Record<string, unknown> | undefined;
  }[],
  own: ReadonlySet<string>,
  param: (i: number) => string,
): ToolSpec[] {
  const seen = new Set<string>();
  return tools.map((t, i) => {
    if (own.has(t.name))
      throw badRequest(`${param(i)}: ${t.name} is the name of one of Iris's own tools; rename it`, param(i));
    if (seen.has(t.name)) throw badRequest(`${param(i)}: ${t.name} is given twice`, param(i));
    seen.add(t.name);
    return {
      name: t.name,
      description: t.description ?? "",
      parameters: t.parameters ?? { type: "object", properties: {} },
    };
  });
}
