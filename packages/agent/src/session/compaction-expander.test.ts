// H5 through the store: a provider's server-side compaction item stays for its own route and is
// expanded to the originals it points to for any other route, at send time.
import { join } from "node:path";
import type { AssistantMessage, Message, Origin } from "@iris/llm";
import { openStore } from "@iris/store";
import { tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelClient } from "../ports.js";
import { makeShaper } from "../turn/shaper.js";
import { compactionExpander } from "./compaction-expander.js";
import { StoreConversation } from "./store-conversation.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const CODEX: Origin = { provider: "openai", apiMode: "responses", model: "gpt-5" };
const said = (text: string, origin: Origin = CODEX): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  origin,
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "end",
});

function route(provider: string, apiMode: string): ModelClient {
  return {
    route: () => ({ provider, apiMode, model: "m", baseUrl: "http://127.0.0.1:1/v1" }),
    call: async () => ({ ok: false, error: { kind: "aborted", message: "unused", retryable: false } }),
  };
}

describe("compactionExpander", () => {
  it("keeps the item for its own route and expands it to its originals for another", async () => {
    const dir = tempDir("iris-expand-");
    const store = openStore(join(dir.path, "state.db"));
    cleanups.push(dir.cleanup, () => store.close());
    const id = (await store.createSession({ source: "test" })).id;
    const log = await StoreConversation.open(store, id);
    await log.append({ role: "user", content: "the original question" });
    const last = await log.append(said("the original answer"));
    const item: AssistantMessage = {
      ...said("[compacted]"),
      parts: [
        {
          type: "reasoning",
          text: "",
          raw: { type: "compaction", id: "cmp_1", encrypted_content: "opaque" },
        },
        { type: "text", text: "[compacted]" },
      ],
    };
    // A compaction is a new root pointing back at what it replaced; the conversation goes on below it.
    const root = await store.appendNode(id, {
      parentId: null,
      kind: "compaction",
      message: item,
      expandsTo: last,
    });
    await store.appendNode(id, {
      parentId: root.id,
      kind: "message",
      message: { role: "user", content: "next" },
    });
    const history = await (await StoreConversation.open(store, id)).history();
    expect(history).toHaveLength(2);
    const expand = compactionExpander();
    const text = (ms: Message[]) =>
      ms.map((m) =>
        m.role === "assistant"
          ? m.parts.map((p) => ("text" in p ? p.text : "")).join("")
          : m.role === "user"
            ? m.content
            : "",
      );
    const own = makeShaper(
      route("openai", "responses"),
      () => ({ contextWindow: 100_000, vision: true }),
      "s",
      expand,
    );
    // Its own route reads the item (a placeholder user turn leads a history opening with it).
    expect(text(own(history))).toEqual(["[conversation continues]", "[compacted]", "next"]);
    const other = makeShaper(
      route("anthropic", "anthropic_messages"),
      () => ({ contextWindow: 100_000, vision: true }),
      "s",
      expand,
    );
    expect(text(other(history))).toEqual(["the original question", "the original answer", "next"]);
  });
});
