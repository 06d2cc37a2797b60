// What of a node goes into the full-text indexes: what a person would search for.
import type { Message, UserPart } from "@iris/llm";

export function searchTextOf(message: Message | undefined, text: string | undefined): string {
  const pieces: string[] = [];
  if (text) pieces.push(text);
  if (message) {
    switch (message.role) {
      case "user":
      case "tool":
        pieces.push(contentText(message.content));
        break;
      case "assistant":
        for (const part of message.parts) {
          if (part.type === "text") pieces.push(part.text);
          else if (part.type === "toolCall") pieces.push(`${part.name} ${part.argumentsJson}`);
        }
        if (message.refusal) pieces.push(message.refusal);
        break;
    }
  }
  return pieces.filter((p) => p.length > 0).join("\n");
}

function contentText(content: string | UserPart[]): string {
  if (typeof content === "string") return content;
  return content
    .map((p) => (p.type === "text" ? p.text : ""))
    .filter((t) => t.length > 0)
    .join("\n");
}
