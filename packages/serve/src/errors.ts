// Errors in the shape every OpenAI client parses: `{error: {message, type, code, param}}` with
// the matching HTTP status (the official SDK maps 401 to AuthenticationError, 429 to
// RateLimitError, …). Messages name what is wrong and never echo a key.
import type { ZodError } from "zod";
import { plainIssue, valueAt } from "./zod-wording.js";

export interface ApiErrorBody {
  error: { message: string; type: string; code: string | null; param: string | null };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, code: this.code, param: this.param } };
  }
}

export const badRequest = (message: string, param: string | null = null, code = "invalid_request") =>
  new ApiError(400, message, "invalid_request_error", code, param);

/** `messages[2].role` from a zod path. */
export function paramOf(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out;
}

/** The first zod issue as a 400 naming the field, in plain words (zod-wording.ts); `body` is what was sent. */
export function fromZod(err: ZodError, body?: unknown): ApiError {
  const issue = err.issues[0];
  if (!issue) return badRequest("invalid request body");
  const path = [...issue.path];
  // A discriminated union whose discriminator matched nothing: name the discriminator itself.
  const discriminator = (issue as { discriminator?: string }).discriminator;
  if (issue.code === "invalid_union" && discriminator && path.at(-1) !== discriminator)
    path.push(discriminator);
  const param = paramOf(path);
  return badRequest(`${param || "body"} ${plainIssue(issue, valueAt(body, path))}`, param || null);
}
