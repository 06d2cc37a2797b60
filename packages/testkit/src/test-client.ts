/** Plain-fetch helpers for testkit's own tests (not exported from the package). */
import type { FakeLlm } from "./types.js";

export interface ParsedSse {
  event?: string;
  data: string;
}

/** Parses an SSE body the way an EventSource does: blank line ends an event. */
export function parseSse(text: string): ParsedSse[] {
  const out: ParsedSse[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    out.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return out;
}

const PATHS = {
  chat: "/chat/completions",
  responses: "/responses",
  anthropic: "/messages",
} as const;

export type Mode = keyof typeof PATHS;

export function post(
  fake: FakeLlm,
  mode: Mode,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${fake.baseUrl}${PATHS[mode]}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: init.signal ?? null,
  });
}

/** A minimal valid request body for each api mode. */
export function minimalBody(mode: Mode, stream: boolean, extra: Record<string, unknown> = {}): unknown {
  const base =
    mode === "responses"
      ? { model: "gpt-fake", input: "hello" }
      : mode === "anthropic"
        ? { model: "claude-fake", max_tokens: 100, messages: [{ role: "user", content: "hello" }] }
        : { model: "gpt-fake", messages: [{ role: "user", content: "hello" }] };
  return { ...base, stream, ...extra };
}

/** SSE payloads as JSON objects (skips `[DONE]`). */
export async function sseJson(res: Response): Promise<{ event?: string; json: Record<string, unknown> }[]> {
  const events = parseSse(await res.text());
  return events
    .filter((e) => e.data !== "[DONE]")
    .map((e) => ({ ...(e.event === undefined ? {} : { event: e.event }), json: JSON.parse(e.data) }));
}
