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

it("two logs of one session writing turns at once make two valid branches", async () => {
  const a = openStore(`${dir.path}/state.db`);
  const b = openStore(`${dir.path}/state.db`);
  const s = await a.createSession({ source: "cli" });
  const base = await StoreConversation.open(a, s.id);
  await base.append({ role: "user", content: "hello" });
  await base.append(answer("hi"));

  const one = await StoreConversation.open(a, s.id);
  const two = await StoreConversation.open(b, s.id);
  await one.append({ role: "user", content: "from one" });
  await two.append({ role: "user", content: "from two" });
  const lastOne = await one.append(answer("answer one"));
  const lastTwo = await two.append(answer("answer two"));

  const roles = async (leaf: string) => (await a.pathToRoot(leaf)).map((n) => n.role);
  expect(await roles(lastOne)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(await roles(lastTwo)).toEqual(["user", "assistant", "user", "assistant"]);
  const texts = async (leaf: string) =>
    (await a.pathToRoot(leaf)).map((n) => (n.message?.role === "user" ? textOf(n.message.content) : ""));
  expect(await texts(lastTwo)).toContain("from two");
  expect(await texts(lastTwo)).not.toContain("from one");
  expect(await a.listBranches(s.id)).toHaveLength(2);
  await a.close();
  await b.close();
});
