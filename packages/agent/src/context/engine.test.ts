import type { Message } from "@iris/llm";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newestUserIndex } from "./boundaries.js";
import { computeContextBudget } from "./budget.js";
import { createDefaultContextEngine } from "./engine.js";
import { sessionHygiene } from "./hygiene.js";
import { llmSummarizer } from "./llm-summarizer.js";
import { INSTRUCTIONS_BEGIN, isSummaryMessage, SUMMARY_PREFIX } from "./summary-text.js";
import {
  assistant,
  call,
  fakeRuntime,
  pairingProblems,
  result,
  sameRoleNeighbours,
  user,
  wordsOf,
} from "./test-support.js";
import { estimateMessagesTokens } from "./tokens.js";

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

interface ChatBody {
  max_tokens?: number;
  messages: { role: string; content: string }[];
}
const bodyOf = (i: number): ChatBody => fake.requests[i]?.body as ChatBody;

/** Head of three, then rounds whose weight is in the assistant's prose (phase 1 cannot prune it). */
function talkativeHistory(rounds: number, answerTokens: number): Message[] {
  const messages: Message[] = [
    user("Project task: refactor the parser"),
    assistant("Understood."),
    user("Start with the lexer."),
  ];
  for (let i = 0; i < rounds; i++) {
    messages.push(user(`question ${i}`), call(`c${i}`, "read_file", { path: `/src/f${i}.ts` }));
    messages.push(
      result(`c${i}`, "read_file", `file ${i}`),
      assistant(`answer ${i}: ${wordsOf(answerTokens)}`),
    );
  }
  messages.push(user("What is left to do?"));
  return messages;
}

const engine = createDefaultContextEngine({ protectLastN: 6 });
const budget60k = computeContextBudget({ contextWindow: 60_000, protectLastN: 6 });

describe("phase 2 against a real model call", () => {
  it("summarises the middle, keeps head and tail, and re-injects project instructions", async () => {
    const messages = talkativeHistory(30, 1_600);
    expect(estimateMessagesTokens(messages)).toBeGreaterThan(budget60k.triggerTokens);
    fake.enqueue({ text: "SUMMARY-ONE: the lexer was refactored." });
    const out = await engine.compress({
      messages,
      budget: budget60k,
      summarizer: llmSummarizer(fakeRuntime(fake.baseUrl), 128_000),
      projectInstructions: "Always run the linter before committing.",
    });
    if (!out.ok) throw new Error(out.reason);
    expect(out.phase).toBe(2);
    expect(fake.requests).toHaveLength(1);
    expect(bodyOf(0).max_tokens).toBe(3_000);
    const prompt = bodyOf(0)
      .messages.map((m) => m.content)
      .join("\n");
    expect(prompt).toContain("answer 0:");
    expect(prompt).not.toContain("What is left to do?"); // the tail is not summarised
    expect(out.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    const summary = out.messages[3] as Message;
    expect(isSummaryMessage(summary)).toBe(true);
    expect(out.summaryText).toContain("SUMMARY-ONE");
    expect(out.summaryText).toContain(`${INSTRUCTIONS_BEGIN}\nAlways run the linter before committing.`);
    expect(summary.role).toBe("assistant"); // it follows a user message
    expect(out.messages.at(-1)).toBe(messages.at(-1));
    expect(newestUserIndex(out.messages)).toBe(out.messages.length - 1);
    expect(pairingProblems(out.messages)).toEqual([]);
    expect(sameRoleNeighbours(out.messages)).toEqual([]);
    expect(out.after.tokens).toBeLessThan(out.before.tokens);
    expect(out.after.tokens).toBeLessThan(budget60k.triggerTokens);
    expect(out.summarised?.start).toBe(3);
  });

  it("updates the previous summary on the next compression instead of starting over", async () => {
    const first = talkativeHistory(30, 1_600);
    fake.enqueue({ text: "SUMMARY-ONE: the lexer was refactored." });
    const summarizer = llmSummarizer(fakeRuntime(fake.baseUrl), 128_000);
    const one = await engine.compress({
      messages: first,
      budget: budget60k,
      summarizer,
      projectInstructions: "RULES",
    });
    if (!one.ok) throw new Error(one.reason);
    const grown = [...one.messages];
    for (let i = 100; i < 130; i++)
      grown.push(user(`later ${i}`), assistant(`reply ${i}: ${wordsOf(1_600)}`));
    grown.push(user("And now?"));
    fake.enqueue({ text: "SUMMARY-TWO: lexer done, parser started." });
    const two = await engine.compress({
      messages: grown,
      budget: budget60k,
      summarizer,
      projectInstructions: "RULES",
    });
    if (!two.ok) throw new Error(two.reason);
    const request = bodyOf(1)
      .messages.map((m) => m.content)
      .join("\n");
    expect(request).toContain("UPDATE");
    expect(request).toContain(
      "<previous-summary>\nSUMMARY-ONE: the lexer was refactored.\n</previous-summary>",
    );
    expect(request).not.toContain(SUMMARY_PREFIX);
    const summaries = two.messages.filter(isSummaryMessage);
    expect(summaries).toHaveLength(1);
    expect(two.summaryText).toContain("SUMMARY-TWO");
    expect(two.summaryText?.split("RULES")).toHaveLength(2); // instructions carried once
  });

  it("fails closed when the summary call fails: the originals stay and the user is told why", async () => {
    const messages = talkativeHistory(30, 1_600);
    fake.enqueue({ fault: "status", status: 500, body: { error: { message: "boom" } } });
    const out = await engine.compress({
      messages,
      budget: budget60k,
      summarizer: llmSummarizer(fakeRuntime(fake.baseUrl), 128_000),
    });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.messages).toEqual(messages);
    for (const [i, m] of out.messages.entries()) expect(m).toBe(messages[i]);
    expect(out.reason).toMatch(/summary model failed.*500/);
    expect(out.warning).toMatch(/Context compression failed/);
    expect(out.warning).toMatch(/nothing was dropped/);
  });

  it("detects a summary model whose window is too small before calling it", async () => {
    const messages = talkativeHistory(30, 1_600);
    const out = await engine.compress({
      messages,
      budget: budget60k,
      summarizer: llmSummarizer(fakeRuntime(fake.baseUrl), 16_000),
    });
    expect(fake.requests).toHaveLength(0);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.reason).toMatch(/context window \(16000 tokens\) is too small/);
    expect(out.messages).toEqual(messages);
  });
});

describe("the 60K worked example", () => {
  /** Head ~small, 20 older messages, then 20 messages of ~2,600 tokens each (about 52,000). */
  function heavyTail(): Message[] {
    const messages: Message[] = [
      user("Look up the policy articles."),
      assistant("Sure."),
      user("Start with article 1."),
    ];
    for (let i = 0; i < 10; i++) messages.push(assistant(`note ${i}: ${wordsOf(300)}`), user(`more ${i}`));
    for (let i = 0; i < 10; i++)
      messages.push(assistant(`article ${i}: ${wordsOf(2_600)}`), user(`next ${i}: ${wordsOf(2_600)}`));
    return messages;
  }

  it("the 20-message floor beats the 9,000-token tail budget only up to 18,000, so the 85 % net stays silent", async () => {
    const budget = computeContextBudget({ contextWindow: 60_000 });
    expect([
      budget.triggerTokens,
      budget.tailBudgetTokens,
      budget.summaryCapTokens,
      budget.gatewayTokens,
    ]).toEqual([45_000, 9_000, 3_000, 51_000]);
    const messages = heavyTail();
    expect(estimateMessagesTokens(messages)).toBeGreaterThan(budget.triggerTokens);
    fake.enqueue({ text: "SUMMARY: policy lookup in progress." });
    const out = await createDefaultContextEngine().compress({
      messages,
      budget,
      summarizer: llmSummarizer(fakeRuntime(fake.baseUrl), 128_000),
    });
    if (!out.ok) throw new Error(out.reason);
    expect(out.phase).toBe(2);
    // The floor would keep 20 messages (about 52,000 tokens, more than the trigger); it may take
    // the tail to twice the budget only, so the newest messages that fit 18,000 stay verbatim.
    const tail = out.messages.slice((out.summarised?.start ?? 0) + 1);
    expect(tail.length).toBeGreaterThan(2);
    expect(tail.length).toBeLessThan(20);
    expect(tail).toEqual(messages.slice(-tail.length));
    expect(estimateMessagesTokens(tail)).toBeLessThanOrEqual(2 * budget.tailBudgetTokens);
    expect(isSummaryMessage(out.messages[out.summarised?.start ?? 0] as Message)).toBe(true);
    expect(sameRoleNeighbours(out.messages)).toEqual([]);
    expect(out.after.tokens).toBeLessThan(budget.triggerTokens);
    const hygiene = sessionHygiene({ messages: out.messages, budget, compressionEnabled: true });
    expect(hygiene.fire).toBe(false);
  });

  it("with a lower floor the compressed history drops far below 45,000 and the net stays silent", async () => {
    const budget = computeContextBudget({ contextWindow: 60_000, protectLastN: 3 });
    fake.enqueue({ text: "SUMMARY: policy lookup in progress." });
    const out = await createDefaultContextEngine().compress({
      messages: heavyTail(),
      budget,
      summarizer: llmSummarizer(fakeRuntime(fake.baseUrl), 128_000),
    });
    if (!out.ok) throw new Error(out.reason);
    expect(out.after.tokens).toBeLessThan(budget.triggerTokens);
    expect(sessionHygiene({ messages: out.messages, budget, compressionEnabled: true }).fire).toBe(false);
  });
});

describe("sessionHygiene", () => {
  const budget = computeContextBudget({ contextWindow: 60_000 });
  const four = [user("a"), assistant("b"), user("c"), assistant("d")];

  it("prefers the measured prompt size and fires only at 0.85 of the window", () => {
    expect(
      sessionHygiene({ messages: four, lastPromptTokens: 50_999, budget, compressionEnabled: true }),
    ).toEqual({
      fire: false,
      tokens: 50_999,
      source: "measured",
    });
    const fired = sessionHygiene({
      messages: four,
      lastPromptTokens: 51_000,
      budget,
      compressionEnabled: true,
    });
    expect(fired.fire).toBe(true);
    expect(fired.alarm).toContain("51000 tokens (measured)");
  });

  it("needs at least 4 messages and compression enabled", () => {
    const three = four.slice(0, 3);
    expect(
      sessionHygiene({ messages: three, lastPromptTokens: 59_000, budget, compressionEnabled: true }).fire,
    ).toBe(false);
    expect(
      sessionHygiene({ messages: four, lastPromptTokens: 59_000, budget, compressionEnabled: false }).fire,
    ).toBe(false);
  });

  it("falls back to an estimate that does not undercount Korean", () => {
    const korean = "압축이 일어나면 세션이 쪼개지고 부모 세션 ID로 연결됩니다. ".repeat(700);
    const messages = [user(korean), assistant("네"), user("계속"), assistant("네")];
    const out = sessionHygiene({ messages, budget, compressionEnabled: true });
    expect(out.source).toBe("estimate");
    expect(out.tokens).toBeGreaterThan(korean.length * 0.75);
  });
});
