// A chat reaches its own session only, through host's session look-up (SPEC G1, D1): when
// compression moved the chat's session on in another process (a terminal's `iris -r` say), the
// chat goes on in the live child after a restart of the gateway; a chat whose record points at a
// session that is not one of this platform's chats (an API key's conversation) starts afresh and
// never sees that session's history.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMPRESSED_END_REASON, IrisProcess, loadProfile, StoreConversation } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { getLogger } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Gateway } from "../src/runner.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter, message } from "./memory-adapter.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;
let gateway: Gateway | undefined;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-gw-owner");
});
afterEach(async () => {
  await gateway?.stop();
  await iris?.close();
  await fake.close();
  dir.cleanup();
});

async function startGateway(): Promise<void> {
  await gateway?.stop();
  if (!iris) throw new Error("no process");
  gateway = new Gateway({
    iris,
    tables: await openGatewayTables(iris),
    adapters: [new MemoryAdapter()],
    config: iris.profile.config.gateway,
    cwd: dir.path,
    logger: getLogger({ component: "test" }),
  });
  await gateway.start();
}

async function say(text: string): Promise<string> {
  fake.enqueue({ text: `answer to ${text}` });
  await gateway?.handle(message({ text }));
  await gateway?.settled();
  return fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
}

it("a chat follows its session's compression split to the child, and never reaches another's session", async () => {
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}\ngateway:\n  allow_all: true\n`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  const store = storeOf(iris);
  await startGateway();
  await say("hi");
  const first = (await store.listSessions({ limit: 1 }))[0];
  if (!first) throw new Error("no session");
  expect(first.source).toBe("gateway:mem");

  // Another process compresses the chat's session: it ends, and a child goes on with a summary.
  await gateway?.stop();
  const child = await store.createSession({ source: first.source, parentSessionId: first.id, cwd: dir.path });
  await store.appendNode(child.id, {
    kind: "message",
    message: { role: "user", content: "summary: the user is marker-child" },
  });
  await store.appendNode(child.id, {
    kind: "message",
    message: {
      role: "assistant",
      parts: [{ type: "text", text: "noted" }],
      origin: { provider: "fake", apiMode: "chat_completions", model: "fake-model" },
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      stopReason: "end",
    },
  });
  await store.endSession(first.id, COMPRESSED_END_REASON);
  await startGateway();
  expect(await say("again")).toContain("marker-child");
  const roles = (await (await StoreConversation.open(store, child.id)).history()).map((m) => m.role);
  expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
  // The ended parent got nothing more.
  expect(await (await StoreConversation.open(store, first.id)).history()).toHaveLength(2);

  // The chat's record now points at an API key's conversation (not a chat of this platform).
  await gateway?.stop();
  const foreign = await store.createSession({ source: "api:alice", cwd: dir.path });
  await store.appendNode(foreign.id, {
    kind: "message",
    message: { role: "user", content: "alice's secret marker-foreign" },
  });
  await (await openGatewayTables(store)).state.repointChats(child.id, foreign.id);
  await startGateway();
  const sent = await say("who am I?");
  expect(sent).not.toContain("marker-foreign");
  expect(sent).not.toContain("marker-child");
  expect(await (await StoreConversation.open(store, foreign.id)).history()).toHaveLength(1);
  expect(fake.violations).toEqual([]);
});
