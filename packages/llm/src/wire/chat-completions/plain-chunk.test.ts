import { describe, expect, it } from "vitest";
import { plainChunk } from "./plain-chunk.js";
import { chunkSchema } from "./schema.js";
import { mapUsage } from "./usage.js";

const plain = [
  {
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [
      {
        index: 0,
        delta: { role: "assistant", content: "", refusal: null, tool_calls: null },
        finish_reason: null,
      },
    ],
  },
  { id: "c1", choices: [{ index: 0, delta: { content: "hi" }, logprobs: null, finish_reason: null }] },
  { id: "c1", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: null },
  { choices: [] },
  { choices: [{ delta: null }] },
  {
    choices: [],
    usage: {
      prompt_tokens: 9,
      completion_tokens: 2,
      total_tokens: 11,
      prompt_tokens_details: { cached_tokens: 8, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: null },
    },
  },
  { choices: [], usage: { prompt_tokens: 3, prompt_cache_hit_tokens: 2, prompt_tokens_details: null } },
  {},
];
const notPlain = [
  { choices: [{ index: 0, delta: { reasoning_content: "hmm" } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "t", function: { name: "f" } }] } }] },
  { choices: [{ index: 0, delta: { refusal: "no" } }] },
  { choices: [], usage: { prompt_tokens: "3" } },
  { choices: [], usage: { prompt_tokens_details: { cached_tokens: "8" } } },
  { choices: [], usage: { completion_tokens_details: [] } },
  { choices: [], usage: 12 },
  { error: { message: "overloaded" } },
  { error: null, choices: [] },
  // Shapes chunkSchema refuses must reach it (its error names what is wrong).
  { id: 7, choices: [] },
  { choices: [{ index: "0", delta: { content: "x" } }] },
  { choices: [{ delta: { content: 5 } }] },
  { choices: [{ delta: "text" }] },
  { choices: {} },
  [],
  "chunk",
  null,
];

describe("plainChunk", () => {
  it("takes the plain chunks, and reads every field the reducer uses as chunkSchema does", () => {
    for (const json of plain) {
      const fast = plainChunk(json);
      const zod = chunkSchema.parse(json);
      expect(fast).toBeDefined();
      // The same fields with the same values (zod drops unknown fields; the reducer ignores them).
      expect(chunkSchema.parse(fast)).toEqual(zod);
      expect(fast?.id).toEqual(zod.id);
      expect(mapUsage(fast?.usage)).toEqual(mapUsage(zod.usage));
      expect(fast?.choices?.map((c) => [c.index, c.delta?.content, c.delta?.role, c.finish_reason])).toEqual(
        zod.choices?.map((c) => [c.index, c.delta?.content, c.delta?.role, c.finish_reason]),
      );
    }
  });

  it("leaves everything else to chunkSchema", () => {
    for (const json of notPlain) expect(plainChunk(json)).toBeUndefined();
  });
});
