// The body of POST /v1/responses (zod, SPEC E3). Loose like the chat body: parameters Iris does
// not use are accepted and ignored; what it reads is checked and a bad field is named.
import { z } from "zod";

const inputText = z.looseObject({ type: z.enum(["input_text", "output_text"]), text: z.string() });
const inputImage = z.looseObject({ type: z.literal("input_image"), image_url: z.string().min(1) });
const contentPart = z.discriminatedUnion("type", [inputText, inputImage]);

export const messageItem = z.looseObject({
  type: z.literal("message").optional(),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(contentPart)]),
});
export const functionCallItem = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});
export const functionOutputItem = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.string(),
});
export const inputItem = z.union([messageItem, functionCallItem, functionOutputItem]);
export type InputItem = z.infer<typeof inputItem>;

export const responsesRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string().min(1), z.array(inputItem).min(1)]),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  conversation: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]).nullish(),
  tools: z
    .array(
      z.looseObject({
        type: z.literal("function"),
        name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and - (at most 64)"),
        description: z.string().nullish(),
        parameters: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .nullish(),
  tool_choice: z.union([z.enum(["none", "auto", "required"]), z.looseObject({ type: z.string() })]).nullish(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  /** Runs on without the client, its stream recorded for GET /v1/responses/{id}?stream=true. */
  background: z.boolean().nullish(),
});
export type ResponsesRequest = z.infer<typeof responsesRequest>;
