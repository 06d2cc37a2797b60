// Bad input at the HTTP boundary, through the official openai SDK: JSON nested beyond the bound
// (a client tool schema 20,000 levels deep) is a clear 400 at once, never a 502 after a stack
// overflow, and the server goes on answering; a deep but reasonable schema still works.
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

/** A JSON Schema whose property `a` holds an object `depth` times over. */
function nestedSchema(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}
/**
 * The SDK's own JSON.stringify cannot write 20,000 levels (it overflows the client's stack): the
 * request is made through the SDK with a marker schema, and its fetch puts the deep text in.
 */
const MARK = '"__deep_schema__"';
const DEEP = `${'{"type":"object","properties":{"a":'.repeat(20_000)}{"type":"string"}${"}}".repeat(20_000)}`;
const deepClient = (h: Harness) =>
  new OpenAI({
    apiKey: ALICE,
    baseURL: h.baseURL,
    maxRetries: 0,
    fetch: (url, init) =>
      fetch(url, {
        ...init,
        ...(typeof init?.body === "string" ? { body: init.body.replace(MARK, DEEP) } : {}),
      }),
  });
const tool = (depth: number) => ({
  type: "function" as const,
  function: { name: "deep", description: "a deep schema", parameters: nestedSchema(depth) },
});

describe("JSON nested too deep (openai SDK against iris serve)", () => {
  it("a client tool schema 20,000 levels deep is a 400 naming the bound, on both APIs", async () => {
    const client = deepClient(h);
    const marked = { type: "function" as const, function: { name: "deep", parameters: "__deep_schema__" } };
    const chat = await client.chat.completions
      // biome-ignore lint/suspicious/noExplicitAny: the marker stands where a schema object goes
      .create({ model: "iris", messages: [{ role: "user", content: "hi" }], tools: [marked as any] })
      .catch((e: unknown) => e);
    expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
    const err = chat as InstanceType<typeof OpenAI.BadRequestError>;
    expect(err.status).toBe(400);
    expect(err.code).toBe("json_too_deep");
    expect(err.message).toMatch(/nested deeper than 128 levels/);
    const responses = await client.responses
      .create({
        model: "iris",
        input: "hi",
        // biome-ignore lint/suspicious/noExplicitAny: the marker stands where a schema object goes
        tools: [{ type: "function", name: "deep", parameters: "__deep_schema__" as any, strict: false }],
      })
      .catch((e: unknown) => e);
    expect(responses).toBeInstanceOf(OpenAI.BadRequestError);
    expect((responses as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("json_too_deep");
    expect(h.fake.requests).toHaveLength(0);
    // The server goes on answering, and a schema 40 levels deep reaches the model whole.
    h.fake.enqueue({ text: "fine" });
    const ok = await client.chat.completions.create({
      model: "iris",
      messages: [{ role: "user", content: "hi" }],
      tools: [tool(40)],
    });
    expect(ok.choices[0]?.message.content).toBe("fine");
    expect(sentBodies(h.fake)[0]).toContain(JSON.stringify(nestedSchema(40)));
  });
});
