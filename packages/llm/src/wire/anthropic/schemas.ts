// zod shapes of what the Anthropic Messages API sends back. Loose objects: thinking blocks are
// kept exactly as received (their signature must go back untouched).
import { z } from "zod";

export const usageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
});

export const contentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
});

export const deltaSchema = z.looseObject({
  type: z.string().optional(),
  stop_reason: z.string().nullish(),
  text: z.string().optional(),
  partial_json: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
});

export const providerErrorSchema = z.looseObject({
  type: z.string().nullish(),
  message: z.string().nullish(),
});

export const streamEventSchema = z.looseObject({
  type: z.string(),
  index: z.number().optional(),
  message: z.looseObject({ id: z.string().optional(), usage: usageSchema.nullish() }).optional(),
  content_block: contentBlockSchema.optional(),
  delta: deltaSchema.optional(),
  usage: usageSchema.nullish(),
  error: providerErrorSchema.optional(),
});

export const messageReplySchema = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  content: z.array(contentBlockSchema),
  stop_reason: z.string().nullish(),
  usage: usageSchema.nullish(),
});

export type AnthropicUsage = z.infer<typeof usageSchema>;
export type ContentBlock = z.infer<typeof contentBlockSchema>;
export type StreamEventData = z.infer<typeof streamEventSchema>;
export type ProviderErrorBody = z.infer<typeof providerErrorSchema>;
