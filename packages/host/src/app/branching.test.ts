import { join } from "node:path";
import { StoreConversation } from "@iris/agent";
import type { AssistantMessage } from "@iris/llm";
import { openStore } from "@iris/store";
import { tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { branchBefore, userTurns } from "./branching.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const answer = (text: string): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "end",
});

async function session() {
  const dir = tempDir("iris-branch-");
  const store = openStore(join(dir.path, "state.db"));
  cleanups.push(dir.cleanup, () => store.close());
  const id = (await store.createSession({ source: "cli" })).id;
  const log = await StoreConversation.open(store, id);
  for (const [q, a] of [
    ["first question", "first answer"],
    ["second question", "second answer"],
    ["third question", "third answer"],
  ] as const) {
    await log.append({ role: "user", content: q });
    await log.append(answer(a));
  }
  return { store, id };
}

describe("branching at an earlier user message", () => {
  it("lists the user messages and continues before message N on a new branch, keeping the old one", async () => {
    const { store, id } = await session();
    expect((await userTurns(store, id)).map((t) => [t.number, t.preview])).toEqual([
      [1, "first question"],
      [2, "second question"],
      [3, "third question"],
    ]);
    const moved = await branchBefore(store, id, 2);
    expect(moved.ok).toBe(true);
    // What the next Agent does: a fresh log over the active path, then the new message.
    const log = await StoreConversation.open(store, id);
    expect((await log.history()).map((m) => (m.role === "user" ? m.content : "a"))).toEqual([
      "first question",
      "a",
    ]);
    await log.append({ role: "user", content: "second question, edited" });
    await log.append(answer("a fresh answer"));
    const path = await (await StoreConversation.open(store, id)).history();
    expect(path).toHaveLength(4);
    expect(path[2]).toEqual({ role: "user", content: "second question, edited" });
    // The old branch is still there: two tips.
    expect(await store.listBranches(id)).toHaveLength(2);
  });

  it("names what is wrong for a message that does not exist or opens the session", async () => {
    const { store, id } = await session();
    expect(await branchBefore(store, id, 7)).toEqual({
      ok: false,
      error: "no user message 7 in this session (it has 3; /branch lists them)",
    });
    const first = await branchBefore(store, id, 1);
    expect(first.ok).toBe(false);
    expect(await (await StoreConversation.open(store, id)).history()).toHaveLength(6); // nothing moved
  });
});
