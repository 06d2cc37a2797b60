// Two writers on one session (SPEC D1, H1): each log appends below its own last node, so two
// processes resuming the same session make two branches, never an interleaved chain.
import { textOf } from "@iris/llm";
import { openStore } from "@iris/store";
import { tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { StoreConversation } from "./store-conversation.js";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("iris-log-");
});
afterEach(() => dir.cleanup());

const answer = (text: string) => ({
  role: "assistant" as const,
  parts: [{ type: "text" as const, text }],
  origin: { provider: "p", apiMode: "chat_completions" as const, model: "m" },
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "end" as const,
});

it("two logs of one session writing turns at once make two valid branches", () => {
  const a = openStore(`${dir.path}/state.db`);
  const b = openStore(`${dir.path}/state.db`);
  const s = a.createSession({ source: "cli" });
  const base = new StoreConversation(a, s.id);
  base.append({ role: "user", content: "hello" });
  base.append(answer("hi"));

  const one = new StoreConversation(a, s.id);
  const two = new StoreConversation(b, s.id);
  one.append({ role: "user", content: "from one" });
  two.append({ role: "user", content: "from two" });
  const lastOne = one.append(answer("answer one"));
  const lastTwo = two.append(answer("answer two"));

  const roles = (leaf: string) => a.pathToRoot(leaf).map((n) => n.role);
  expect(roles(lastOne)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(roles(lastTwo)).toEqual(["user", "assistant", "user", "assistant"]);
  const texts = (leaf: string) =>
    a.pathToRoot(leaf).map((n) => (n.message?.role === "user" ? textOf(n.message.content) : ""));
  expect(texts(lastTwo)).toContain("from two");
  expect(texts(lastTwo)).not.toContain("from one");
  expect(a.listBranches(s.id)).toHaveLength(2);
  a.close();
  b.close();
});
