// zod shapes of what the Responses API sends back (stream events and the JSON reply). Loose
// objects: unknown fields are kept (a reasoning item is stored exactly as received, H4).
import { z } from "zod";

export const outputItemSchema = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
});

export const messageContentSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  refusal: z.string().optional(),
});

export const messageItemSchema = z.looseObject({
  type: z.literal("message"),
  id: z.string().optional(),
  content: z.array(messageContentSchema).default([]),
});

export const functionCallItemSchema = z.looseObject({
  type: z.literal("function_call"),
  id: z.string().optional(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string().default(""),
});

export const summaryEntrySchema = z.looseObject({ type: z.string(), text: z.string().default("") });

export const reasoningItemSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().optional(),
  summary: z.array(summaryEntrySchema).default([]),
  encrypted_content: z.string().nullish(),
});

export const usageSchema = z.looseObject({
  input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().default(0) }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().default(0) }).nullish(),
});

export const providerErrorSchema = z.looseObject({
  code: z.string().nullish(),
  type: z.string().nullish(),
  message: z.string().nullish(),
});

export const responseSchema = z.looseObject({
  id: z.string().optional(),
  status: z.string().optional(),
  output: z.array(outputItemSchema).default([]),
  usage: usageSchema.nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  error: providerErrorSchema.nullish(),
});

export type ResponseBody = z.infer<typeof responseSchema>;
export type ResponsesUsage = z.infer<typeof usageSchema>;
export type ProviderErrorBody = z.infer<typeof providerErrorSchema>;
