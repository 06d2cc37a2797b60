// One SSE event's JSON payload, checked against the format's event schema. Shared by the
// reducers of formats whose every data line is a JSON event.
import type { z } from "zod";
import { type LlmError, llmError } from "../errors.js";
import type { SseEvent } from "./adapter.js";

export type SseJson<T> = { kind: "event"; value: T } | { kind: "skip" } | { kind: "error"; error: LlmError };

/** `label` names the format in error messages; `skip` lists data lines that carry no event. */
export function parseSseJson<T>(
  sse: SseEvent,
  schema: z.ZodType<T>,
  label: string,
  skip: string[] = [],
): SseJson<T> {
  const data = sse.data.trim();
  if (data === "" || skip.includes(data)) return { kind: "skip" };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return {
      kind: "error",
      error: llmError("invalid_response", `${label}: malformed SSE data in ${sse.event ?? "event"}`),
    };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return {
      kind: "error",
      error: llmError("invalid_response", `${label}: unexpected SSE event ${sse.event ?? ""}`.trim()),
    };
  return { kind: "event", value: parsed.data };
}
