import { describe, expect, it } from "vitest";
import type { Runtime } from "../runtime.js";
import type { AssistantMessage, Message, ReasoningPart, ToolCallPart, ToolResultMessage } from "../types.js";
import { API_MODES } from "../types.js";
import { adapterFor } from "../wire/adapters.js";
import { CONVERSATION_CONTINUES, IMAGE_OMITTED, type ShapeTarget, shapeForTarget } from "./shape.js";
import { asst, call, ORIGINS, reasoningOf, result, text, user } from "./test/build.js";

const reasoningIn = (ms: Message[]): ReasoningPart[] =>
  ms.flatMap((m) =>
    m.role === "assistant" ? m.parts.filter((p): p is ReasoningPart => p.type === "reasoning") : [],
  );
const callsIn = (ms: Message[]): ToolCallPart[] =>
  ms.flatMap((m) =>
    m.role === "assistant" ? m.parts.filter((p): p is ToolCallPart => p.type === "toolCall") : [],
  );

const mixed: Message[] = [
  user("q1"),
  asst(ORIGINS.openaiResponses, reasoningOf("responses", 1), text("a1")),
  user("q2"),
  asst(ORIGINS.anthropic, reasoningOf("anthropic_messages", 2), text("a2")),
  user("q3"),
  asst(ORIGINS.deepseek, reasoningOf("plain", 3), text("a3")),
  user("q4"),
];

const target = (
  o: { provider: string; apiMode: ShapeTarget["apiMode"] },
  extra: Partial<ShapeTarget> = {},
) => ({
  provider: o.provider,
  apiMode: o.apiMode,
  model: "whatever",
  ...extra,
});

describe("shapeForTarget: reasoning", () => {
  it("keeps only reasoning the target's own provider and api mode made, raw untouched", () => {
    const r = shapeForTarget(mixed, target(ORIGINS.openaiResponses));
    const kept = reasoningIn(r.messages);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toBe((mixed[1] as AssistantMessage).parts[0]); // the very same object, raw and all
    expect(r.removed).toEqual([]);
    expect(r.notes.join("\n")).toMatch(/dropped 2 reasoning/);
  });

  it("drops raw reasoning from the same provider under another api mode", () => {
    const r = shapeForTarget(mixed, target(ORIGINS.openaiChat));
    expect(reasoningIn(r.messages)).toEqual([]);
  });

  it("keeps Anthropic thinking only for Anthropic", () => {
    const r = shapeForTarget(mixed, target(ORIGINS.anthropic));
    expect(reasoningIn(r.messages).map((p) => p.raw?.["type"])).toEqual(["thinking"]);
  });

  it("keeps plain reasoning_content for the same provider, whatever its api mode", () => {
    expect(reasoningIn(shapeForTarget(mixed, target(ORIGINS.deepseek)).messages)).toHaveLength(1);
    const otherMode = shapeForTarget(mixed, {
      provider: "deepseek",
      apiMode: "anthropic_messages",
      model: "x",
    });
    expect(reasoningIn(otherMode.messages).map((p) => p.text)).toEqual(["thought 3"]);
    expect(reasoningIn(shapeForTarget(mixed, target(ORIGINS.vllm)).messages)).toEqual([]);
  });

  it("drops an assistant message that held only foreign reasoning, without a warning", () => {
    const h: Message[] = [user("a"), asst(ORIGINS.anthropic, reasoningOf("anthropic_messages")), user("b")];
    const r = shapeForTarget(h, target(ORIGINS.openaiResponses));
    expect(r.messages.map((m) => m.role)).toEqual(["user"]);
    expect(r.removed).toEqual([]);
  });
});

describe("shapeForTarget: tool-call ids", () => {
  const h: Message[] = [
    user("q"),
    asst(ORIGINS.openaiResponses, call("call_1", { callId: "call_1", itemId: "fc_1" })),
    result("call_1"),
    asst(ORIGINS.anthropic, call("toolu_2", { callId: "toolu_2" })),
    result("toolu_2"),
    asst(ORIGINS.anthropic, text("done")),
  ];

  it("keeps the provider's own ids for its own route", () => {
    const r = shapeForTarget(h, target(ORIGINS.openaiResponses));
    expect(callsIn(r.messages).map((c) => c.providerIds)).toEqual([
      { callId: "call_1", itemId: "fc_1" },
      undefined,
    ]);
    expect(callsIn(r.messages).map((c) => c.callId)).toEqual(["call_1", "toolu_2"]);
  });

  it("drops foreign provider ids and keeps the pairing id", () => {
    const r = shapeForTarget(h, target(ORIGINS.anthropic));
    const calls = callsIn(r.messages);
    expect(calls[0]).not.toHaveProperty("providerIds");
    expect(calls[0]?.callId).toBe("call_1");
    expect(calls[1]?.providerIds).toEqual({ callId: "toolu_2" });
    expect(r.messages.filter((m): m is ToolResultMessage => m.role === "tool").map((m) => m.callId)).toEqual([
      "call_1",
      "toolu_2",
    ]);
  });
});

describe("shapeForTarget: images", () => {
  const png = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
  const h: Message[] = [
    { role: "user", content: [{ type: "text", text: "look" }, png] },
    asst(ORIGINS.openaiChat, call("c1")),
    { role: "tool", callId: "c1", toolName: "shot", content: [png], isError: false },
    {
      role: "user",
      content: [{ type: "image", mediaType: "image/jpeg", url: "https://x.test/a/cat.jpg?s=1" }],
    },
  ];

  it("turns images into a note for text-only targets, in user content and tool results", () => {
    const r = shapeForTarget(h, target(ORIGINS.openaiChat, { vision: false }));
    const json = JSON.stringify(r.messages);
    expect(json).not.toContain('"image"');
    expect(json).toContain(IMAGE_OMITTED);
    expect(json).toContain("(cat.jpg)");
    expect(r.notes.join("\n")).toMatch(/replaced 3 image/);
  });

  it("keeps images when the target reads them or nothing is known", () => {
    for (const vision of [true, undefined]) {
      const r = shapeForTarget(h, target(ORIGINS.openaiChat, vision === undefined ? {} : { vision }));
      expect(JSON.stringify(r.messages).match(/"image"/g)).toHaveLength(3);
    }
  });
});

describe("shapeForTarget: sanitation", () => {
  it("reports what it removed and leaves a shape every api mode accepts", () => {
    const h: Message[] = [
      user("q"),
      asst(ORIGINS.openaiResponses, reasoningOf("responses"), call("a"), call("b"), call("")),
      result("a"),
      result("ghost"),
      user("again", "ann"),
      user("and me", "bob"),
    ];
    const r = shapeForTarget(h, target(ORIGINS.openaiResponses));
    expect(r.removed.join("\n")).toMatch(/call b .*without a result/);
    expect(r.removed.join("\n")).toMatch(/empty id/);
    expect(r.removed.join("\n")).toMatch(/result ghost .*without its call/);
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
  });

  it("changes nothing in a well-formed same-route history", () => {
    const h: Message[] = [
      user("q"),
      asst(
        ORIGINS.openaiResponses,
        reasoningOf("responses"),
        call("call_1", { callId: "call_1", itemId: "fc_1" }),
      ),
      result("call_1"),
      asst(ORIGINS.openaiResponses, text("done")),
    ];
    const r = shapeForTarget(h, target(ORIGINS.openaiResponses));
    expect(r).toEqual({ messages: h, removed: [], dropped: 0, notes: [] });
  });
});

describe("shapeForTarget: opening turn", () => {
  it("leads with a placeholder user message when the history would open with an assistant", () => {
    const h: Message[] = [user(""), asst(ORIGINS.anthropic, text("hi")), user("q")];
    const r = shapeForTarget(h, target(ORIGINS.anthropic));
    expect(r.messages[0]).toEqual({ role: "user", content: CONVERSATION_CONTINUES });
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(r.removed).toEqual(["empty user message"]);
  });
});

describe("shapeForTarget: same-provider model switch", () => {
  const runtimeFor = (mode: ShapeTarget["apiMode"], model: string): Runtime => ({
    provider: "openai",
    apiMode: mode,
    baseUrl: "http://127.0.0.1:9/v1",
    model,
    headers: {},
    compat: { auth: "bearer", reasoningContent: true },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "none",
    },
  });
  const h: Message[] = [
    user("q", "ann"),
    asst(
      ORIGINS.openaiResponses,
      reasoningOf("responses"),
      call("call_1", { callId: "call_1", itemId: "fc_1" }),
    ),
    result("call_1"),
    asst(ORIGINS.anthropic, reasoningOf("anthropic_messages"), call("toolu|x", { callId: "toolu|x" })),
    result("toolu|x"),
    asst(ORIGINS.openaiChat, reasoningOf("plain"), text("done")),
    { role: "user", content: [{ type: "image", mediaType: "image/png", data: "AAAA" }] },
  ];

  it("yields deep-equal messages and byte-identical bodies apart from the model name", () => {
    for (const apiMode of API_MODES) {
      for (const extra of [{}, { vision: false, contextWindow: 100 }]) {
        const a = shapeForTarget(h, { provider: "openai", apiMode, model: "gpt-5", ...extra });
        const b = shapeForTarget(h, { provider: "openai", apiMode, model: "gpt-5-mini", ...extra });
        expect(b).toEqual(a);
        const body = (model: string, messages: Message[]) => {
          const built = adapterFor(apiMode).buildRequest(runtimeFor(apiMode, model), {
            model,
            messages,
          }).body;
          expect(built["model"]).toBe(model);
          return JSON.stringify({ ...built, model: undefined });
        };
        expect(body("gpt-5-mini", b.messages)).toBe(body("gpt-5", a.messages));
      }
    }
  });
});
