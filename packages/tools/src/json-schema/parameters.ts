// Tool parameters given as JSON Schema (MCP tools bring theirs), validated with Ajv: the same
// contract as a zod schema — the dispatcher parses the model's JSON, validates it, and tells the
// model which field is wrong. A schema Ajv cannot compile is still offered; the server then
// judges the arguments (and the compile error is kept for `iris mcp test`).
import { createRequire } from "node:module";
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from "ajv";

export type JsonSchemaCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export interface JsonSchemaParameters {
  readonly kind: "json-schema";
  /** What the model sees: an object schema without `$schema`. */
  readonly schema: Record<string, unknown>;
  /** Why the schema could not be compiled, when it could not. */
  readonly compileError?: string;
  validate(value: unknown): JsonSchemaCheck;
}

// One Ajv for every MCP tool: compiling is the costly part and each schema is compiled once.
// Loaded with the first JSON Schema tool: a start without MCP servers never parses Ajv (~260 KB).
let shared: AjvClass | undefined;
function ajv(): AjvClass {
  if (!shared) {
    const { Ajv } = createRequire(import.meta.url)("ajv") as typeof import("ajv");
    shared = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  }
  return shared;
}

export function isJsonSchemaParameters(p: unknown): p is JsonSchemaParameters {
  return typeof p === "object" && p !== null && (p as { kind?: unknown }).kind === "json-schema";
}

/** Wraps a tool's JSON Schema; a missing or non-object schema becomes `{type: "object"}`. */
export function jsonSchemaParameters(input: unknown): JsonSchemaParameters {
  const schema = objectSchema(input);
  let check: ValidateFunction | undefined;
  let compileError: string | undefined;
  try {
    check = ajv().compile(schema);
  } catch (e) {
    compileError = e instanceof Error ? e.message : String(e);
  }
  return {
    kind: "json-schema",
    schema,
    ...(compileError !== undefined ? { compileError } : {}),
    validate(value) {
      if (value === null || typeof value !== "object" || Array.isArray(value))
        return { ok: false, message: "the arguments must be one JSON object" };
      if (check && !check(value)) return { ok: false, message: describe(check.errors ?? []) };
      return { ok: true, value: value as Record<string, unknown> };
    },
  };
}

function objectSchema(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return { type: "object" };
  const { $schema: _drop, ...rest } = input as Record<string, unknown>;
  if (rest.type !== "object") return { ...rest, type: "object" };
  return rest;
}

function describe(errors: ErrorObject[]): string {
  const parts = errors.slice(0, 8).map((e) => {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const path = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
    const where = missing ? `'${path ? `${path}.` : ""}${missing}'` : path ? `'${path}'` : "the arguments";
    return `${where}: ${e.message ?? e.keyword}`;
  });
  return `invalid arguments: ${parts.join("; ")}`;
}
