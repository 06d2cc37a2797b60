// Session hygiene before the agent is created (SPEC C1, C2): a chat whose history is over 0.85
// of the window is compressed first, and the chat follows the split to the new session.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IrisProcess, loadProfile } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { createLogger, type Message, ZERO_USAGE } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Gateway } from "../src/runner.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter, message } from "./memory-adapter.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "short answer" }));
  dir = tempDir("iris-gw-hygiene");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

it("compresses an oversized chat history before the turn and re-points the chat", async () => {
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model, context_window: 8000}\nproviders: {fake: {base_url: "${fake.baseUrl}"}}\n` +
      "compression: {protect_last_n: 2}\ngateway:\n  allow_all: true\n",
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const lines: string[] = [];
  const iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  const gateway = new Gateway({
    iris,
    tables: await openGatewayTables(iris),
    adapters: [new MemoryAdapter()],
    config: profile.config.gateway,
    cwd: dir.path,
    logger: createLogger({ level: "error", sink: (line) => lines.push(line) }),
  });
  await gateway.start();
  await gateway.handle(message({ text: "start" }));
  await gateway.settled();
  const state = gateway.state;
  const before = (await state.chatSession("mem:dm:ann")) ?? "";
  // A history far over 0.85 of the 8,000-token window, as a broken agent layer would leave it.
  const seeded: Message[] = [];
  for (let i = 0; i < 12; i++)
    seeded.push(
      { role: "user", content: `question ${i} ${"words ".repeat(300)}` },
      {
        role: "assistant",
        parts: [{ type: "text", text: `answer ${i} ${"words ".repeat(300)}` }],
        origin: { provider: "fake", apiMode: "chat_completions", model: "fake-model" },
        usage: { ...ZERO_USAGE },
        stopReason: "end",
      },
    );
  await storeOf(iris).appendNodes(
    before,
    seeded.map((m) => ({ kind: "message" as const, message: m })),
  );
  await gateway.handle(message({ text: "and now?" }));
  await gateway.settled();
  const after = await state.chatSession("mem:dm:ann");
  expect(after).not.toBe(before);
  await gateway.stop();
  await iris.close();
  // The gateway layer fired (the agent layer alone would compress without the alarm).
  expect(lines.join("\n")).toContain("context alarm");
});
