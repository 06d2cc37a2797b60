import { describe, expect, it } from "vitest";
import type { Runtime } from "../runtime.js";
import type { ApiMode, Message, ToolCallPart, ToolResultMessage } from "../types.js";
import { API_MODES } from "../types.js";
import { adapterFor } from "../wire/adapters.js";
import { assignCallIds, safeCallId } from "./call-ids.js";
import { shapeForTarget } from "./shape.js";
import { asst, call, ORIGINS, result, text, user } from "./test/build.js";

const local = { provider: "llamacpp", apiMode: "chat_completions", model: "qwen" } as const;
const callsIn = (ms: Message[]): ToolCallPart[] =>
  ms.flatMap((m) =>
    m.role === "assistant" ? m.parts.filter((p): p is ToolCallPart => p.type === "toolCall") : [],
  );
const resultIds = (ms: Message[]) =>
  ms.filter((m): m is ToolResultMessage => m.role === "tool").map((m) => m.callId);

/** The call ids and result ids as they appear on the wire of a built request, in order. */
function wirePairs(mode: ApiMode, messages: Message[]): { calls: string[]; results: string[] } {
  const runtime: Runtime = {
    provider: "p",
    apiMode: mode,
    baseUrl: "http://127.0.0.1:9/v1",
    model: "m",
    headers: {},
    compat: { auth: "none" },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "none",
    },
  };
  const body = adapterFor(mode).buildRequest(runtime, { model: "m", messages }).body;
  const items = (mode === "responses" ? body["input"] : body["messages"]) as Record<string, unknown>[];
  const out = { calls: [] as string[], results: [] as string[] };
  const blocks =
    mode === "anthropic_messages" ? items.flatMap((m) => m["content"] as Record<string, unknown>[]) : items;
  for (const b of blocks) {
    if (mode === "chat_completions") {
      for (const c of (b["tool_calls"] ?? []) as Record<string, unknown>[]) out.calls.push(String(c["id"]));
      if (b["role"] === "tool") out.results.push(String(b["tool_call_id"]));
    } else if (mode === "responses") {
      if (b["type"] === "function_call") out.calls.push(String(b["call_id"]));
      if (b["type"] === "function_call_output") out.results.push(String(b["call_id"]));
    } else {
      if (b["type"] === "tool_use") out.calls.push(String(b["id"]));
      if (b["type"] === "tool_result") out.results.push(String(b["tool_use_id"]));
    }
  }
  return out;
}

describe("reused and composite call ids", () => {
  const reused: Message[] = [
    user("q"),
    asst(local, call("call_0", { callId: "call_0" })),
    result("call_0", "first"),
    asst(local, call("call_0", { callId: "call_0" }), call("call_0", { callId: "call_0" })),
    result("call_0", "second"),
    result("call_0", "third"),
    asst(local, text("done")),
  ];

  it("gives later calls that reuse an id a unique derived id, and their results in order", () => {
    const r = assignCallIds(reused, { provider: local.provider, apiMode: local.apiMode, model: "x" });
    expect(callsIn(r.messages).map((c) => c.callId)).toEqual(["call_0", "call_0__2", "call_0__3"]);
    expect(resultIds(r.messages)).toEqual(["call_0", "call_0__2", "call_0__3"]);
    const contents = r.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(contents).toEqual(["first", "second", "third"]); // order kept: second result → second call
    expect(r.renamed).toBe(2);
  });

  it("derived ids avoid ids used later in the history", () => {
    const h: Message[] = [
      ...reused.slice(0, 3),
      asst(local, call("call_0")),
      result("call_0"),
      asst(local, call("call_0__2")),
      result("call_0__2"),
    ];
    const r = assignCallIds(h, { provider: "llamacpp", apiMode: "chat_completions", model: "x" });
    const ids = callsIn(r.messages).map((c) => c.callId);
    expect(new Set(ids).size).toBe(3);
    expect(ids).toEqual(["call_0", "call_0__3", "call_0__2"]);
  });

  it("maps a composite id and a result naming either half to one safe canonical call", () => {
    const h: Message[] = [
      user("q"),
      asst(ORIGINS.openaiResponses, call("call_x|fc_y", { callId: "call_x|fc_y" }), call("call_z|fc_w")),
      result("call_x"),
      result("call_z|fc_w"),
      asst(ORIGINS.openaiResponses, text("ok")),
    ];
    const r = shapeForTarget(h, { provider: "anthropic", apiMode: "anthropic_messages", model: "c" });
    expect(callsIn(r.messages).map((c) => c.callId)).toEqual(["call_x_fc_y", "call_z_fc_w"]);
    expect(resultIds(r.messages)).toEqual(["call_x_fc_y", "call_z_fc_w"]);
    expect(r.removed).toEqual([]);
  });

  it("makes over-long or odd foreign ids safe and deterministic", () => {
    const long = `toolu_${"a".repeat(60)}`;
    expect(safeCallId(long)).toHaveLength(40);
    expect(safeCallId(long)).toBe(safeCallId(long));
    expect(safeCallId(long)).not.toBe(safeCallId(`${long}b`));
    expect(safeCallId("ok_id-1")).toBe("ok_id-1");
  });

  it("pairs every result with its call on the wire of all three formats", () => {
    const h: Message[] = [
      user("q"),
      asst(ORIGINS.openaiResponses, call("call_1", { callId: "call_1", itemId: "fc_1" })),
      result("call_1"),
      asst(ORIGINS.anthropic, call("toolu_1", { callId: "toolu_1" }), call("x", { callId: "call_1" })),
      result("toolu_1"),
      result("x"),
      ...reused.slice(1, 6),
      asst(ORIGINS.openaiChat, call("a|b", { callId: "a|b" })),
      result("a|b"),
      asst(ORIGINS.openaiChat, text("done")),
    ];
    for (const mode of API_MODES) {
      for (const provider of ["openai", "anthropic", "llamacpp"]) {
        const shaped = shapeForTarget(h, { provider, apiMode: mode, model: "m" });
        expect(shaped.removed, `${provider}/${mode}`).toEqual([]);
        const { calls, results } = wirePairs(mode, shaped.messages);
        expect(calls, `${provider}/${mode}`).toHaveLength(7);
        expect(new Set(calls).size, `${provider}/${mode}: wire call ids unique`).toBe(calls.length);
        expect(results, `${provider}/${mode}`).toEqual(calls);
      }
    }
  });
});
