// A 400's message in the words of the API, not of the validation library (SPEC E3): "must be
// one of "user", "tool" (got "bot")", "needs at least 1 item", "is required (a string)".
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

const quoted = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

function got(input: unknown): string {
  if (input === undefined) return "";
  if (input === null) return " (got null)";
  if (Array.isArray(input)) return " (got an array)";
  if (typeof input === "object") return " (got an object)";
  const text = JSON.stringify(input) ?? String(input);
  return ` (got ${text.length > 40 ? `${text.slice(0, 40)}…` : text})`;
}

const ARTICLE: Record<string, string> = { array: "an array", object: "an object", int: "a whole number" };
const kind = (name: string) => ARTICLE[name] ?? `a ${name}`;

/** The issue's message for a client; `input` is the offending value when known. */
export function plainIssue(issue: Issue, input?: unknown): string {
  switch (issue.code) {
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      if (options?.length) return `must be one of ${quoted(options)}${got(input)}`;
      return `is not one of the accepted shapes${got(input)}`;
    }
    case "invalid_value":
      return `must be one of ${quoted(issue.values)}${got(input)}`;
    case "invalid_type":
      return input === undefined
        ? `is required (${kind(issue.expected)})`
        : `must be ${kind(issue.expected)}${got(input)}`;
    case "too_small": {
      const n = Number(issue.minimum);
      if (issue.origin === "array") return `needs at least ${n} item${n === 1 ? "" : "s"}`;
      if (issue.origin === "string") return n === 1 ? "must not be empty" : `needs at least ${n} characters`;
      return `must be at least ${n}`;
    }
    case "too_big": {
      const n = Number(issue.maximum);
      if (issue.origin === "array") return `takes at most ${n} item${n === 1 ? "" : "s"}`;
      if (issue.origin === "string") return `takes at most ${n} characters`;
      return `must be at most ${n}`;
    }
    case "invalid_format":
      return `is not a valid ${issue.format}${got(input)}`;
    case "unrecognized_keys":
      return `has unknown field${issue.keys.length === 1 ? "" : "s"} ${quoted(issue.keys)}`;
    default:
      return issue.message;
  }
}

/** The value at `path` of `body`, if it is there. */
export function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}
