// A subagent's text is its own (SPEC E3, E5): streamed through the turn view, a delegated task's
// words never show in the answer's text, in chat completions or Responses; its calls still show
// as the parent's progress only through the subagent's own fold.
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

const delegated = () => [
  { toolCalls: [{ name: "delegate_task", arguments: { goal: "look it up" } }] },
  { text: "subagent words" },
  { text: "the final answer" },
];

describe("subagent text in streams", () => {
  it("chat completions and Responses stream only the parent's text", async () => {
    h = await startHarness({ serve: ["  tool_progress: off"] });
    h.fake.enqueue(...delegated());
    const stream = await h.client().chat.completions.create({
      model: "iris",
      messages: [{ role: "user", content: "go" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("the final answer");
    // The subagent did run: its reply reached the parent as the tool's result.
    expect(h.fake.requests.at(-1)?.rawBody.toString("utf8")).toContain("subagent words");

    h.fake.enqueue(...delegated());
    const r = await h.client().responses.stream({ model: "iris", input: "go" }).finalResponse();
    expect(r.output_text).toBe("the final answer");
    expect(h.fake.violations).toEqual([]);
  });
});
