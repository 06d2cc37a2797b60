/** Server-sent events as the real APIs emit them. */

export interface SseEvent {
  /** The `event:` line; OpenAI Chat Completions sends none. */
  event?: string;
  /** The `data:` payload, already serialised. */
  data: string;
}

export function sseEvent(event: string | undefined, payload: unknown): SseEvent {
  const data = typeof payload === "string" ? payload : JSON.stringify(payload);
  return event === undefined ? { data } : { event, data };
}

export function formatSse(e: SseEvent): string {
  const head = e.event === undefined ? "" : `event: ${e.event}\n`;
  return `${head}data: ${e.data}\n\n`;
}

export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};
