// Responses state under concurrency (SPEC E3): 25 clients of two API keys continue their own
// response chains and named conversations at once, through state.db; each turn sees only its own
// client's messages, and a key never reaches the other key's responses.
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, BOB, type Harness, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

describe("Responses state", () => {
  it("25 clients at once: each chain and each conversation holds only its own messages", async () => {
    h = await startHarness({ serve: ["  max_concurrent_per_key: 100", "  requests_per_minute: 1000"] });
    // The fake answers with every marker it finds in the request: a leak would show up there.
    h.fake.setHandler((req) => {
      const markers = [...new Set(req.rawBody.toString("utf8").match(/marker-\d+/g) ?? [])].sort();
      return { text: `seen ${markers.join(" ")}` };
    });
    const ids = Array.from({ length: 25 }, (_, i) => i);
    // Clients 2k (alice) and 2k+1 (bob) use the same conversation name: one per key all the same.
    const keyOf = (i: number) => (i % 2 ? BOB : ALICE);
    const client = (i: number) => new OpenAI({ apiKey: keyOf(i), baseURL: h.baseURL, maxRetries: 0 });
    const firsts = await Promise.all(
      ids.map((i) =>
        client(i).responses.create({
          model: "iris",
          input: `I am marker-${i}`,
          conversation: `c-${Math.floor(i / 2)}`,
        }),
      ),
    );
    for (const [i, r] of firsts.entries()) expect(r.output_text).toBe(`seen marker-${i}`);
    const seconds = await Promise.all(
      ids.map((i) =>
        client(i)
          .responses.stream({ model: "iris", input: "who?", previous_response_id: firsts[i]?.id ?? "" })
          .finalResponse(),
      ),
    );
    for (const [i, r] of seconds.entries()) expect(r.output_text).toBe(`seen marker-${i}`);
    const thirds = await Promise.all(
      ids.map((i) =>
        client(i).responses.create({
          model: "iris",
          input: "again?",
          conversation: `c-${Math.floor(i / 2)}`,
        }),
      ),
    );
    for (const [i, r] of thirds.entries()) expect(r.output_text).toBe(`seen marker-${i}`);
    // The other key's response ids are "not found", every one of them.
    const crossed = await Promise.allSettled(
      ids.map((i) =>
        client(i + 1).responses.create({
          model: "iris",
          input: "?",
          previous_response_id: firsts[i]?.id ?? "",
        }),
      ),
    );
    expect(crossed.every((r) => r.status === "rejected" && r.reason instanceof OpenAI.NotFoundError)).toBe(
      true,
    );
    expect(h.fake.violations).toEqual([]);
  }, 180_000); // 75 turns on a shared 2-core machine: slow, never timing-dependent
});
