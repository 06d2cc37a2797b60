// A conversation in the layout of OpenAI's chat fine-tuning files: `messages` (system, user,
// assistant with `tool_calls`, tool with `tool_call_id`) with `tools` alongside, the function
// schemas the model was offered. Arguments stay the JSON text the model wrote; reasoning, which
// that layout has no place for, is kept beside the messages, by message index.
import type { Message, ToolSpec, UserPart } from "@iris/llm";
import { z } from "zod";

export const openAiToolSchema = z.strictObject({
  type: z.literal("function"),
  function: z.strictObject({
    name: z.string().min(1),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});

const toolCallSchema = z.strictObject({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string().min(1), arguments: z.string() }),
});

export const openAiMessageSchema = z.discriminatedUnion("role", [
  z.strictObject({ role: z.literal("system"), content: z.string() }),
  z.strictObject({ role: z.literal("user"), content: z.string() }),
  z.strictObject({
    role: z.literal("assistant"),
    content: z.string().optional(),
    tool_calls: z.array(toolCallSchema).min(1).optional(),
  }),
  z.strictObject({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: z.string() }),
]);

export const reasoningEntrySchema = z.strictObject({ message: z.number().int().min(0), text: z.string() });

export type OpenAiTool = z.output<typeof openAiToolSchema>;
export type OpenAiMessage = z.output<typeof openAiMessageSchema>;
export type ReasoningEntry = z.output<typeof reasoningEntrySchema>;

export function openAiTools(specs: readonly ToolSpec[]): OpenAiTool[] {
  return specs.map((s) => ({
    type: "function",
    function: { name: s.name, description: s.description, parameters: s.parameters },
  }));
}

function userText(content: string | UserPart[]): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : `[image ${p.mediaType}]`)).join("\n");
}

/** The canonical history (system prompt apart) as fine-tuning messages, and its reasoning. */
export function toOpenAiMessages(
  systemPrompt: string,
  history: readonly Message[],
): { messages: OpenAiMessage[]; reasoning: ReasoningEntry[] } {
  const messages: OpenAiMessage[] = [];
  const reasoning: ReasoningEntry[] = [];
  if (systemPrompt) messages.push({ role: "system", content: systemPrompt });
  for (const m of history) {
    if (m.role === "user") {
      messages.push({ role: "user", content: userText(m.content) });
      continue;
    }
    if (m.role === "tool") {
      messages.push({ role: "tool", tool_call_id: m.callId, content: userText(m.content) });
      continue;
    }
    const thought = m.parts
      .filter((p) => p.type === "reasoning")
      .map((p) => p.text)
      .join("\n");
    if (thought.trim()) reasoning.push({ message: messages.length, text: thought });
    const text = m.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("");
    const calls = m.parts.flatMap((p) =>
      p.type === "toolCall"
        ? [
            {
              id: p.callId,
              type: "function" as const,
              function: { name: p.name, arguments: p.argumentsJson || "{}" },
            },
          ]
        : [],
    );
    messages.push({
      role: "assistant",
      ...(text || !calls.length ? { content: text } : {}),
      ...(calls.length ? { tool_calls: calls } : {}),
    });
  }
  return { messages, reasoning };
}
