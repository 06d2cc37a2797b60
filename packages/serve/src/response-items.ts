// The input items of a Responses API response (SPEC E3), as GET /v1/responses/{id}/input_items
// lists them: every item the response was made from, so a continued response lists the earlier
// responses' inputs and outputs before its own input (as OpenAI's does). Each item gets an id
// when it is stored, so the cursor (`after`) names the same item on every page.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ApiError, fromZod } from "./errors.js";
import type { InputItem } from "./responses-schema.js";

export type ResponseItem = Record<string, unknown> & { id: string; type: string };

/** What GET /v1/responses/{id} and its input_items answer. */
export interface ResponseRecord {
  response: Record<string, unknown> & { output: ResponseItem[] };
  /** Everything the response was made from, oldest first (earlier responses' items included). */
  inputItems: ResponseItem[];
}

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "")}`;

/** What a new response is made from: what it continues (its record), then its own input. */
export function contextItems(
  before: ResponseRecord | undefined,
  input: string | InputItem[],
): ResponseItem[] {
  const earlier = before ? [...before.inputItems, ...before.response.output] : [];
  return [...earlier, ...ownItems(input)];
}

function ownItems(input: string | InputItem[]): ResponseItem[] {
  if (typeof input === "string") return [message("user", [{ type: "input_text", text: input }], undefined)];
  return input.map((item): ResponseItem => {
    const given = typeof item.id === "string" && item.id ? item.id : undefined;
    if (item.type === "function_call")
      return {
        id: given ?? newId("fc"),
        type: "function_call",
        call_id: item.call_id,
        name: item.name,
        arguments: item.arguments,
        status: "completed",
      };
    if (item.type === "function_call_output")
      return {
        id: given ?? newId("fco"),
        type: "function_call_output",
        call_id: item.call_id,
        output: item.output,
        status: "completed",
      };
    const textType = item.role === "assistant" ? "output_text" : "input_text";
    const content =
      typeof item.content === "string"
        ? [{ type: textType, text: item.content }]
        : item.content.map((p) => ({ ...p }));
    return message(item.role, content, given);
  });
}

function message(role: string, content: Record<string, unknown>[], id: string | undefined): ResponseItem {
  return { id: id ?? newId("msg"), type: "message", role, status: "completed", content };
}

const pageQuery = z.object({
  after: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  order: z.enum(["asc", "desc"]).optional(),
});

/** One page of a list, as OpenAI's cursor pages are: newest first unless `order=asc`. */
export function itemsPage(items: readonly ResponseItem[], query: Record<string, string>) {
  const parsed = pageQuery.safeParse(query);
  if (!parsed.success) throw fromZod(parsed.error, query);
  const { after, limit = 20, order = "desc" } = parsed.data;
  const ordered = order === "asc" ? [...items] : [...items].reverse();
  let start = 0;
  if (after !== undefined) {
    const at = ordered.findIndex((i) => i.id === after);
    if (at < 0)
      throw new ApiError(
        400,
        `after: no input item has id ${JSON.stringify(after)}`,
        "invalid_request_error",
        "invalid_request",
        "after",
      );
    start = at + 1;
  }
  const data = ordered.slice(start, start + limit);
  return {
    object: "list" as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < ordered.length,
  };
}
