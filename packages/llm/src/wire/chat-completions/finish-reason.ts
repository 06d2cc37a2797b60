// Chat Completions finish_reason → canonical StopReason.
import type { StopReason } from "../../types.js";

export function mapFinishReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case "stop":
    case "end_turn":
      return "end";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "content_filter";
    default:
      return "unknown";
  }
}
