// Property-style: for many generated histories, compression keeps every invariant.
import type { AssistantMessage, Message } from "@iris/llm";
import { describe, expect, it } from "vitest";
import { newestUserIndex } from "./boundaries.js";
import { computeContextBudget } from "./budget.js";
import { createDefaultContextEngine } from "./engine.js";
import type { Summarizer } from "./summarise.js";
import { isSummaryMessage } from "./summary-text.js";
import {
  assistant,
  call,
  pairingProblems,
  result,
  sameRoleNeighbours,
  user,
  wordsOf,
} from "./test-support.js";

/** A small deterministic PRNG (mulberry32) so a failure can be replayed by its seed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(seed: number): Message[] {
  const rnd = prng(seed);
  const pick = (n: number) => Math.floor(rnd() * n);
  const messages: Message[] = [];
  let id = 0;
  const rounds = 5 + pick(40);
  for (let r = 0; r < rounds; r++) {
    messages.push(user(`ask ${r} ${wordsOf(pick(400))}`));
    const steps = pick(4);
    for (let s = 0; s < steps; s++) {
      const n = 1 + pick(3); // parallel calls
      const c = call(`c${id}`, "terminal", {
        command: `cmd ${id} ${"z".repeat(pick(900))}`,
      }) as AssistantMessage;
      for (let k = 1; k < n; k++)
        c.parts.push({ type: "toolCall", callId: `c${id}-${k}`, name: "read_file", argumentsJson: "{}" });
      messages.push(c);
      messages.push(result(`c${id}`, "terminal", wordsOf(pick(3_000))));
      for (let k = 1; k < n; k++) messages.push(result(`c${id}-${k}`, "read_file", wordsOf(pick(1_500))));
      id++;
    }
    if (rnd() < 0.8) messages.push(assistant(`reply ${r} ${wordsOf(pick(1_200))}`));
  }
  return messages;
}

const summarizer: Summarizer = {
  contextWindow: 1_000_000,
  summarize: async () => ({ ok: true, text: "generated summary" }),
};

describe("compression invariants over generated histories", () => {
  it("keeps the head,  the newest user message and call/result pairing; no same-role neighbours added", async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const messages = generate(seed);
      const protectLastN = 1 + (seed % 20);
      const budget = computeContextBudget({ contextWindow: 16_000 + (seed % 5) * 8_000, protectLastN });
      const out = await createDefaultContextEngine().compress({
        messages,
        budget,
        summarizer,
        promptTokens: seed % 3 === 0 ? undefined : 1e9,
      });
      const where = `seed ${seed}`;
      if (!out.ok) {
        expect(out.messages, where).toEqual(messages);
        expect(out.reason, where).toMatch(/nothing to summarise|saved only/);
        continue;
      }
      expect(pairingProblems(out.messages), where).toEqual([]);
      const newest = messages[newestUserIndex(messages)];
      expect(out.messages.includes(newest as Message), where).toBe(true);
      if (out.phase === 2) {
        // Head messages stay (phase 1 may have shortened old tool outputs inside them).
        const shape = (ms: readonly Message[]) =>
          ms.map((m) => (m.role === "tool" ? `tool:${m.callId}` : m.role));
        expect(shape(out.messages.slice(0, out.summarised?.start)), where).toEqual(
          shape(messages.slice(0, out.summarised?.start)),
        );
        expect(out.messages.filter(isSummaryMessage), where).toHaveLength(1);
        const before = sameRoleNeighbours(messages).length;
        expect(sameRoleNeighbours(out.messages).length, where).toBeLessThanOrEqual(before);
      }
    }
  }, 120_000); // a safety net on a busy machine, not a speed target
});
