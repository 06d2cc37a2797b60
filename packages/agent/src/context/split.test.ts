import { join } from "node:path";
import type { Message } from "@iris/llm";
import { openStore, type Store } from "@iris/store";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagesOfPath } from "../session/store-conversation.js";
import { computeContextBudget } from "./budget.js";
import { createDefaultContextEngine } from "./engine.js";
import { llmSummarizer } from "./llm-summarizer.js";
import { COMPRESSED_END_REASON, splitSession } from "./split.js";
import { isSummaryMessage, SUMMARY_PREFIX } from "./summary-text.js";
import { assistant, call, fakeRuntime, result, user, wordsOf } from "./test-support.js";

let fake: FakeLlm;
let dir: TempDir;
let store: Store;
beforeAll(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-split");
  store = openStore(join(dir.path, "state.db"));
});
afterAll(async () => {
  await store.close();
  dir.cleanup();
  await fake.close();
});

function history(): Message[] {
  const messages: Message[] = [
    user("Refactor the parser"),
    assistant("Understood."),
    user("Start with the lexer."),
  ];
  for (let i = 0; i < 30; i++) {
    const marker = i === 2 ? " zebracorn " : " ";
    messages.push(user(`question ${i}`), call(`c${i}`, "read_file", { path: `/src/f${i}.ts` }));
    messages.push(
      result(`c${i}`, "read_file", `file ${i}`),
      assistant(`answer ${i}:${marker}${wordsOf(1_600)}`),
    );
  }
  messages.push(user("What is left?"));
  return messages;
}

describe("splitSession", () => {
  it("ends the old session, starts a child holding the compacted context, keeps originals searchable", async () => {
    const old = await store.createSession({
      source: "cli",
      cwd: "/home/ann/project",
      systemPrompt: "You are Iris.",
      model: "m",
      provider: "fake",
      title: "Parser work",
    });
    await store.appendNodes(
      old.id,
      history().map((message) => ({ kind: "message" as const, message })),
    );
    const loaded = messagesOfPath(await store.activePath(old.id));
    const oldPathLength = (await store.activePath(old.id)).length;
    fake.enqueue({ text: "SUMMARY: lexer refactored, parser next." });
    const out = await createDefaultContextEngine({ protectLastN: 6 }).compress({
      messages: loaded,
      budget: computeContextBudget({ contextWindow: 60_000, protectLastN: 6 }),
      summarizer: llmSummarizer(fakeRuntime(fake.baseUrl), 128_000),
      projectInstructions: "Run the linter.",
    });
    if (!out.ok || !out.summarised) throw new Error(out.ok ? "no phase 2" : out.reason);
    const childId = await splitSession(store, old.id, out.messages, {
      lastSummarisedIndex: out.summarised.end - 1,
    });

    const ended = await store.getSession(old.id);
    expect(ended.endReason).toBe(COMPRESSED_END_REASON);
    expect(ended.endedAt).not.toBeNull();
    const child = await store.getSession(childId);
    expect(child).toMatchObject({
      parentSessionId: old.id,
      source: "cli",
      cwd: "/home/ann/project",
      systemPrompt: "You are Iris.",
      model: "m",
      provider: "fake",
      title: "Parser work #2",
      endedAt: null,
    });

    const oldPath = await store.activePath(old.id);
    expect(oldPath).toHaveLength(oldPathLength); // the originals stay as they were
    const path = await store.activePath(childId);
    const compaction = path[0];
    expect(compaction?.kind).toBe("compaction");
    expect(compaction?.parentId).toBeNull();
    expect(compaction?.expandsTo).toBe(oldPath[out.summarised.end - 1]?.id);
    expect(compaction?.text).toContain("[Opening of the conversation, kept verbatim]");
    expect(compaction?.text).toContain("USER: Refactor the parser");
    expect(compaction?.text).toContain("SUMMARY: lexer refactored");
    expect(compaction?.text).toContain("Run the linter.");

    const reloaded = messagesOfPath(path);
    expect(isSummaryMessage(out.messages[3] as Message)).toBe(true);
    expect(reloaded[0]).toMatchObject({ role: "user" });
    expect(JSON.stringify(reloaded[0])).toContain(SUMMARY_PREFIX);
    expect(reloaded.slice(1)).toEqual(out.messages.slice(4));

    const expanded = await store.expandCompaction(compaction?.id as string);
    expect(expanded.nodes.map((n) => n.id)).toEqual(oldPath.slice(0, out.summarised.end).map((n) => n.id));

    const hits = await store.search("zebracorn");
    expect(hits.some((h) => h.sessionId === old.id)).toBe(true);
  });

  it("refuses to split a session that has already ended and names the bad index", async () => {
    const s = await store.createSession({ source: "cli" });
    await store.appendNode(s.id, { kind: "message", message: user("hi") });
    await expect(splitSession(store, s.id, [user("hi")], { lastSummarisedIndex: 5 })).rejects.toThrow(
      /outside the session's history/,
    );
    await store.endSession(s.id, "done");
    await expect(splitSession(store, s.id, [user("hi")], {})).rejects.toThrow(/already ended/);
  });
});
