import { describe, expect, it } from "vitest";
import type { Message } from "../types.js";
import { type ExpandHook, expandCompactions, MAX_EXPANSION_DEPTH } from "./expand.js";
import { shapeForTarget } from "./shape.js";
import { asst, ORIGINS, reasoningOf, text, user } from "./test/build.js";

// A compaction node as a store might hand it over: an assistant message whose reasoning raw item
// is the provider's compaction item, with a pointer to the originals kept by the store.
const compaction = (id: string): Message =>
  asst(
    ORIGINS.openaiResponses,
    {
      type: "reasoning",
      text: "",
      raw: { type: "compaction", id, encrypted_content: `blob-${id}` },
    },
    text(`[compacted ${id}]`),
  );

const idOf = (m: Message): string | undefined => {
  if (m.role !== "assistant") return undefined;
  const raw = m.parts[0]?.type === "reasoning" ? m.parts[0].raw : undefined;
  return raw?.["type"] === "compaction" ? String(raw["id"]) : undefined;
};

/** Store-like hook: originals by compaction id; readable only by the same provider. */
const hookFrom =
  (originals: Record<string, Message[]>): ExpandHook =>
  (m, target) => {
    const id = idOf(m);
    if (id === undefined || target.provider === "openai") return undefined;
    return originals[id] ?? [];
  };

const claude = { provider: "anthropic", apiMode: "anthropic_messages" as const, model: "c" };

describe("expandCompactions", () => {
  it("expands nested compactions back to their originals", () => {
    const hook = hookFrom({
      b: [compaction("a"), user("q2"), asst(ORIGINS.openaiResponses, text("a2"))],
      a: [user("q1"), asst(ORIGINS.openaiResponses, reasoningOf("responses"), text("a1"))],
    });
    const r = expandCompactions([compaction("b"), user("q3")], claude, hook);
    expect(r.expanded).toBe(2);
    expect(r.messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual([
      "q1",
      "assistant",
      "q2",
      "assistant",
      "q3",
    ]);
  });

  it("leaves items the target can read alone", () => {
    const h = [compaction("b"), user("q3")];
    const r = expandCompactions(
      h,
      { ...claude, provider: "openai", apiMode: "responses" },
      hookFrom({ b: [] }),
    );
    expect(r).toEqual({ messages: h, expanded: 0, notes: [] });
  });

  it("stops on a pointer cycle instead of looping", () => {
    const hook = hookFrom({ a: [user("x"), compaction("b")], b: [compaction("a"), user("y")] });
    const r = expandCompactions([compaction("a"), user("z")], claude, hook);
    expect(r.notes.join("\n")).toMatch(/cycle/);
    expect(r.messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual(["x", "y", "z"]);
  });

  it("stops at the depth cap when each expansion hands out a fresh node", () => {
    let n = 0;
    const endless: ExpandHook = (m) => (idOf(m) !== undefined ? [compaction(`fresh${n++}`)] : undefined);
    const r = expandCompactions([compaction("start"), user("q")], claude, endless);
    expect(r.expanded).toBe(MAX_EXPANSION_DEPTH);
    expect(r.notes.join("\n")).toMatch(/deeper than/);
    expect(r.messages).toEqual([user("q")]);
  });

  it("shapeForTarget expands first, then shapes what came out", () => {
    const hook = hookFrom({
      a: [user("q1"), asst(ORIGINS.openaiResponses, reasoningOf("responses"), text("a1"))],
    });
    const r = shapeForTarget([compaction("a"), user("q2")], claude, { expand: hook });
    expect(JSON.stringify(r.messages)).not.toContain('"type":"reasoning"');
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(r.notes[0]).toMatch(/expanded 1 compaction/);
  });
});
