// Reasoning continuity through the CLI (issue 11, item 5) against the strict fake server, which
// sends encrypted reasoning only when asked (Responses `include`) and thinking only with extended
// thinking enabled, each signed by that server: a tool round must ask for it and send it back.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

async function toolRound(mode: "responses" | "anthropic_messages", reasoningYaml: string) {
  writeFileSync(join(home.home, "config.yaml"), `model:\n  reasoning:\n${reasoningYaml}`);
  fake.enqueue(
    {
      reasoning: "I should look at the date first.",
      toolCalls: [{ name: "terminal", arguments: { command: "echo 2026" } }],
    },
    { reasoning: "Now I can answer.", text: "It is 2026." },
  );
  const r = await runIris(["-p", "What year is it?", ...routeArgs(fake.baseUrl, mode)], {
    env: { IRIS_HOME: home.home },
  });
  expect(r.stdout, r.stderr).toBe("It is 2026.\n");
  expect(fake.violations.map((v) => v.rejected)).toEqual([]);
  return fake.requests.map((q) => q.body as Record<string, unknown>);
}

describe("reasoning continuity", () => {
  it("Responses: asks for encrypted reasoning (store:false + include) and sends it back", async () => {
    const [first, second] = await toolRound("responses", "    effort: low\n");
    expect(first).toMatchObject({
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "low" },
    });
    const items = second?.input as Record<string, unknown>[];
    const reasoning = items.find((i) => i.type === "reasoning");
    expect(typeof reasoning?.encrypted_content).toBe("string");
  });

  it("Anthropic: enables extended thinking from model.reasoning and replays the signed block", async () => {
    const [first, second] = await toolRound("anthropic_messages", "    budget_tokens: 2048\n");
    expect(first?.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    const turns = second?.messages as { role: string; content: Record<string, unknown>[] }[];
    const assistant = turns.find((t) => t.role === "assistant");
    expect(assistant?.content[0]).toMatchObject({
      type: "thinking",
      thinking: "I should look at the date first.",
    });
    expect(typeof assistant?.content[0]?.signature).toBe("string");
  });
});
