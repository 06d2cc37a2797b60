// Finished Anthropic content blocks → canonical parts. Shared by the stream reducer and the
// non-streaming parser.
import type { AssistantPart } from "../../types.js";
import type { ContentBlock } from "./schemas.js";

export function partFromBlock(block: ContentBlock, argumentsJson?: string): AssistantPart | undefined {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text ?? "" };
    case "thinking":
      return {
        type: "reasoning",
        text: block.thinking ?? "",
        raw: { type: "thinking", thinking: block.thinking ?? "", signature: block.signature ?? "" },
      };
    case "redacted_thinking":
      return { type: "reasoning", text: "", raw: { type: "redacted_thinking", data: block.data ?? "" } };
    case "tool_use": {
      const id = block.id ?? "";
      return {
        type: "toolCall",
        callId: id,
        name: block.name ?? "",
        argumentsJson: argumentsJson ?? JSON.stringify(block.input ?? {}),
        providerIds: { callId: id },
      };
    }
    default:
      return undefined; // server tool blocks and the like: not part of the canonical conversation
  }
}
