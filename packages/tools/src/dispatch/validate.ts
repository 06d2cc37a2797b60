// Turns the model's argument JSON into the tool's input, or into a message that tells the model
// which field is wrong and what was expected.
import { jsonTooDeep } from "@iris/llm";
import type { z } from "zod";
import type { ToolParameters } from "../define.js";
import { isJsonSchemaParameters } from "../json-schema/parameters.js";

export type ParsedArgs = { ok: true; args: unknown } | { ok: false; message: string };

export function parseArguments(schema: ToolParameters, argumentsJson: string): ParsedArgs {
  let raw: unknown;
  const text = argumentsJson.trim();
  if (text === "") raw = {};
  else {
    // Checked without recursion first: zod walks a 20,000-deep value into a stack overflow (E4).
    const deep = jsonTooDeep(text);
    if (deep) return { ok: false, message: `the arguments are refused: ${deep}; send a flatter JSON object` };
    try {
      raw = JSON.parse(text);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false, message: `the arguments are not valid JSON (${why}); send one JSON object` };
    }
  }
  if (isJsonSchemaParameters(schema)) {
    const checked = schema.validate(raw);
    return checked.ok ? { ok: true, args: checked.value } : checked;
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, args: result.data };
  return { ok: false, message: `invalid arguments: ${describeIssues(result.error.issues)}` };
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 8)
    .map((issue) => {
      const where = issue.path.length ? `'${issue.path.map(String).join(".")}'` : "the arguments";
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}
