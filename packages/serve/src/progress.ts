// Tool progress for clients that know nothing of Iris (SPEC E3): a collapsed <details> block in
// the streamed text (Open WebUI and LibreChat render it folded; `serve.tool_progress: off` or the
// header `X-Iris-Tool-Progress: off` switch it off), and a named SSE event with the raw facts.
import { type HostEvent, hideAbsolutePaths, type IrisConfig, toolCallText } from "@iris/host";

export type ToolProgressStyle = "details" | "off";

type ProgressPayload = Extract<HostEvent, { name: "tool_progress" }>["payload"];

/** The readable text for one progress event, or "" (nothing to show). */
export function progressText(p: ProgressPayload): string {
  if (p.phase === "before") {
    // Its main argument, never raw JSON or a path of the server's file layout.
    const what = toolCallText(p.name, p.preview).replace(/[<>`]/g, "");
    return `\n<details>\n<summary>🔧 ${what}</summary>\n\n`;
  }
  if (p.phase === "after") return `${p.isError ? "✗ failed" : "✓ done"}\n</details>\n\n`;
  return "";
}

/** The named event's data: what a client that knows Iris may show. */
export function progressEvent(e: Extract<HostEvent, { name: "tool_progress" }>) {
  const p = e.payload;
  return {
    session_id: e.sessionId,
    task_id: e.taskId,
    call_id: p.callId,
    tool: p.name,
    phase: p.phase,
    ...(p.preview !== undefined ? { preview: hideAbsolutePaths(p.preview) } : {}),
    ...(p.message !== undefined ? { message: hideAbsolutePaths(p.message) } : {}),
    ...(p.isError !== undefined ? { is_error: p.isError } : {}),
  };
}

/** The readable-text style for one request: the X-Iris-Tool-Progress header, else the config. */
export function progressStyle(header: string | undefined, configured: ToolProgressStyle): ToolProgressStyle {
  const h = header?.trim().toLowerCase();
  return h === "off" || h === "details" ? h : configured;
}

/**
 * Whether a stream carries the named events: the X-Iris-Events header, else serve.named_events.
 * `auto` sends them where standard clients pass over them (chat completions, as choices:[]
 * chunks), not where they would break a client (Responses: the SDK's accumulator throws on an
 * event type it does not know).
 */
export function namedEventsOn(
  header: string | undefined,
  configured: IrisConfig["serve"]["named_events"],
  endpoint: "chat" | "responses",
): boolean {
  const h = header?.trim().toLowerCase();
  if (h === "on" || h === "off") return h === "on";
  if (configured === "auto") return endpoint === "chat";
  return configured === true || configured === "on";
}
