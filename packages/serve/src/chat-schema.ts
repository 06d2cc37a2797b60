// The body of POST /v1/chat/completions as clients send it (zod, SPEC E3). Parameters front ends
// send by default (temperature, top_p, presence_penalty, user, …) are accepted and ignored: the
// objects are loose. What Iris reads is checked strictly, so a bad field is a 400 naming it.
import { z } from "zod";

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string().min(1) }),
});
const userPart = z.discriminatedUnion("type", [textPart, imagePart]);

const instructionMessage = z.looseObject({
  role: z.enum(["system", "developer"]),
  content: z.union([z.string(), z.array(textPart)]),
});
const userMessage = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(userPart)]),
  name: z.string().optional(),
});
export const wireToolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal("function").optional(),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});
const assistantMessage = z.looseObject({
  role: z.literal("assistant"),
  content: z
    .union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() })), z.null()])
    .optional(),
  tool_calls: z.array(wireToolCall).optional(),
});
const toolMessage = z.looseObject({
  role: z.literal("tool"),
  tool_call_id: z.string().min(1),
  content: z.union([z.string(), z.array(textPart)]),
});

export const chatMessage = z.discriminatedUnion("role", [
  instructionMessage.extend({ role: z.literal("system") }),
  instructionMessage.extend({ role: z.literal("developer") }),
  userMessage,
  assistantMessage,
  toolMessage,
]);
export type ChatMessage = z.infer<typeof chatMessage>;

export const functionTool = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and - (at most 64)"),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

export const chatRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessage).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z.array(functionTool).nullish(),
  tool_choice: z
    .union([
      z.enum(["none", "auto", "required"]),
      z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string() }) }),
    ])
    .nullish(),
});
export type ChatRequest = z.infer<typeof chatRequest>;
