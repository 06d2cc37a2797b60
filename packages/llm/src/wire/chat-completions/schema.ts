// The Chat Completions wire shapes we read, validated at the boundary (zod 4). Providers send
// `null` for absent fields, so nearly everything is nullish; unknown fields are ignored.
import { z } from "zod";

export const wireUsageSchema = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
  prompt_tokens_details: z
    .object({
      cached_tokens: z.number().nullish(),
      /** Not OpenAI's own field; gateways such as OpenRouter report cache writes so. */
      cache_write_tokens: z.number().nullish(),
    })
    .nullish(),
  completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
  /** Some routes (DeepSeek) report cache hits here instead. */
  prompt_cache_hit_tokens: z.number().nullish(),
});
export type WireUsage = z.infer<typeof wireUsageSchema>;

const toolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export const chunkSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        index: z.number().nullish(),
        delta: z
          .object({
            role: z.string().nullish(),
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            reasoning_details: z.array(z.unknown()).nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(toolCallDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: wireUsageSchema.nullish(),
  error: z.unknown().optional(),
});
export type WireChunk = z.infer<typeof chunkSchema>;

const toolCallSchema = z.object({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string(), arguments: z.string().nullish() }),
});

export const responseSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        index: z.number().nullish(),
        message: z.object({
          role: z.string().nullish(),
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          reasoning_details: z.array(z.unknown()).nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: wireUsageSchema.nullish(),
  error: z.unknown().optional(),
});
export type WireResponse = z.infer<typeof responseSchema>;
