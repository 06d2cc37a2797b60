import { describe, expect, it } from "vitest";
import { estimateMessagesTokens } from "../tokens.js";
import type { Message } from "../types.js";
import { fitToWindow, IMAGE_TOKENS } from "./fit.js";
import { shapeForTarget } from "./shape.js";
import { asst, call, ORIGINS, result, text, user } from "./test/build.js";

const turn = (i: number, size: number): Message[] => [
  user(`question ${i} ${"x".repeat(size)}`),
  asst(ORIGINS.openaiChat, call(`c${i}`)),
  result(`c${i}`, "y".repeat(size)),
  asst(ORIGINS.openaiChat, text(`answer ${i}`)),
];

describe("one estimate", () => {
  it("fits a Korean history exactly where the compression trigger's estimate says it fits", () => {
    const h = [...turn(1, 10), user("안녕하세요 ".repeat(400)), asst(ORIGINS.openaiChat, text("네"))];
    const tokens = estimateMessagesTokens(h, "sys");
    // The window the shared estimate needs, margin included: one token less drops the oldest turn.
    const needed = Math.ceil(tokens / 0.98) + 1;
    expect(fitToWindow(h, { contextWindow: needed, system: "sys" }).dropped).toBe(0);
    expect(fitToWindow(h, { contextWindow: Math.floor(tokens * 0.98), system: "sys" }).dropped).toBe(4);
  });
});

describe("fitToWindow", () => {
  it("skips exact counting when one token per character already fits", () => {
    let calls = 0;
    const h = [...turn(1, 100), ...turn(2, 100)];
    const r = fitToWindow(h, { contextWindow: 10_000, system: "s", estimate: () => ++calls });
    expect(r).toMatchObject({ dropped: 0, counted: false, overLimit: false });
    expect(calls).toBe(0);
    expect(r.messages).toEqual(h);
  });

  it("drops whole oldest turns until the estimate fits the window minus 2 %", () => {
    const h = [...turn(1, 3000), ...turn(2, 3000), ...turn(3, 3000)];
    // 1 token per char: each turn costs a little over 6,000; 12,500 keeps two turns only after the 2 % margin.
    const r = fitToWindow(h, { contextWindow: 12_600, estimate: (t) => t.length });
    expect(r.counted).toBe(true);
    expect(r.dropped).toBe(4);
    expect(r.messages[0]).toEqual(h[4]);
    // Same history, a looser window: nothing dropped, though exact counting ran.
    const loose = fitToWindow(h, { contextWindow: 12_600, estimate: (t) => Math.ceil(t.length / 2) });
    expect(loose).toMatchObject({ dropped: 0, counted: true });
  });

  it("counts the system prompt and reserved tokens against the window", () => {
    const h = [...turn(1, 3000), ...turn(2, 3000)];
    const plain = fitToWindow(h, { contextWindow: 13_000, estimate: (t) => t.length });
    const withSystem = fitToWindow(h, {
      contextWindow: 13_000,
      system: "s".repeat(2000),
      estimate: (t) => t.length,
    });
    const reserved = fitToWindow(h, {
      contextWindow: 13_000,
      reserveTokens: 2000,
      estimate: (t) => t.length,
    });
    expect(plain.dropped).toBe(0);
    expect(withSystem.dropped).toBe(4);
    expect(reserved.dropped).toBe(4);
  });

  it("always keeps the newest turn, and says when it alone is over the limit", () => {
    const h = [...turn(1, 5000), ...turn(2, 5000)];
    const r = fitToWindow(h, { contextWindow: 1000, estimate: (t) => t.length });
    expect(r.messages).toEqual(h.slice(4));
    expect(r.overLimit).toBe(true);
  });

  it("counts an image as a fixed cost, not its base64 bytes", () => {
    const big: Message = {
      role: "user",
      content: [{ type: "image", mediaType: "image/png", data: "A".repeat(50_000) }],
    };
    const r = fitToWindow([user("old"), asst(ORIGINS.openaiChat, text("a")), big], {
      contextWindow: IMAGE_TOKENS * 2,
    });
    expect(r).toMatchObject({ dropped: 0, counted: false });
  });
});

describe("shapeForTarget with a context window", () => {
  it("drops oldest turns, keeping each call with its result, and reports the count", () => {
    const h = [...turn(1, 4000), ...turn(2, 4000), ...turn(3, 10)];
    const r = shapeForTarget(h, {
      provider: "openai",
      apiMode: "chat_completions",
      model: "m",
      contextWindow: 2000,
    });
    expect(r.dropped).toBe(8);
    expect(r.messages).toEqual(h.slice(8));
    expect(r.removed).toEqual([]);
    expect(r.notes.join("\n")).toMatch(/dropped 8 message/);
  });

  it("counts Korean text at 1.7 tokens per character by default (the shared estimate)", () => {
    const korean = "가".repeat(2000);
    const h: Message[] = [
      user(korean),
      asst(ORIGINS.openaiChat, text("a")),
      user(korean),
      asst(ORIGINS.openaiChat, text("b")),
      user("now"),
    ];
    const target = { provider: "openai", apiMode: "chat_completions" as const, model: "m" };
    expect(shapeForTarget(h, { ...target, contextWindow: 6000 }).dropped).toBe(2);
    // The same length in ASCII is estimated at a third and fits.
    const ascii = h.map((m) => (m.role === "user" ? user(String(m.content).replace(/가/g, "a")) : m));
    expect(shapeForTarget(ascii, { ...target, contextWindow: 3000 }).dropped).toBe(0);
  });

  it("uses the caller's estimate and counts the system prompt", () => {
    const h = [...turn(1, 2000), ...turn(2, 10)];
    const target = {
      provider: "openai",
      apiMode: "chat_completions" as const,
      model: "m",
      contextWindow: 9000,
    };
    let counted = 0;
    const estimateTokens = (t: string) => {
      counted++;
      return t.length * 2;
    };
    expect(shapeForTarget(h, target, { estimateTokens }).dropped).toBe(0); // the cheap bound fits
    expect(counted).toBe(0);
    const r = shapeForTarget(h, target, { estimateTokens, system: "s".repeat(2000) });
    expect(counted).toBeGreaterThan(0);
    expect(r.dropped).toBe(4);
  });
});
