// The session adapter on its own: a notification that hangs, rejects or throws never holds up
// the prompt's response, and every tool call the turn announced ends in a terminal status.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { IrisProcess, loadProfile } from "@iris/host";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { AcpSession } from "../src/acp-session.js";
import { configFor } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-session");
  writeFileSync(join(dir.path, "config.yaml"), configFor(fake));
  const env = { IRIS_HOME: dir.path };
  const profile = loadProfile({ env, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  iris = await IrisProcess.open({ profile, env, platform: "acp" });
});
afterEach(async () => {
  await iris.close();
  await fake.close();
  dir.cleanup();
});

async function session(update: (u: SessionUpdate) => Promise<void>, logged: string[]): Promise<AcpSession> {
  const work = join(dir.path, "work");
  mkdirSync(work, { recursive: true });
  const opened = iris.openSession({ source: "acp", cwd: work });
  await opened.startSession();
  return new AcpSession({
    session: opened,
    vision: () => false,
    contextWindow: () => 128_000,
    channel: {
      update,
      askPermission: async () => ({ outcome: { outcome: "cancelled" } }),
      log: (m) => logged.push(m),
    },
  });
}

it("answers the prompt although usage updates hang, plans reject and tool calls throw", async () => {
  const logged: string[] = [];
  const sent: string[] = [];
  const s = await session((u) => {
    sent.push(u.sessionUpdate);
    if (u.sessionUpdate === "usage_update") return new Promise<void>(() => {}); // never settles
    if (u.sessionUpdate === "plan") return Promise.reject(new Error("pipe closed"));
    if (u.sessionUpdate === "tool_call") throw new Error("serialisation failed");
    return Promise.resolve();
  }, logged);
  fake.enqueue(
    { toolCalls: [{ name: "todo", arguments: { todos: [{ id: "1", content: "x", status: "pending" }] } }] },
    { text: "done anyway" },
  );
  expect(await s.prompt([{ type: "text", text: "plan" }])).toBe("end_turn");
  expect(sent).toContain("usage_update");
  expect(sent).toContain("plan");
  expect(logged.join("\n")).toMatch(/pipe closed/);
  expect(logged.join("\n")).toMatch(/serialisation failed/);
});

it("closes tool calls a cancelled batch never ran", async () => {
  const updates: SessionUpdate[] = [];
  let s: AcpSession | undefined;
  s = await session((u) => {
    updates.push(u);
    // Cancel as soon as the first call starts: the second call of the batch never runs.
    if (u.sessionUpdate === "tool_call_update" && u.status === "in_progress") s?.cancel();
    return Promise.resolve();
  }, []);
  fake.enqueue({
    toolCalls: [
      { name: "terminal", arguments: { command: "sleep 20" } },
      { name: "terminal", arguments: { command: "echo never" } },
    ],
  });
  expect(await s.prompt([{ type: "text", text: "two calls" }])).toBe("cancelled");
  const calls = updates
    .filter((u) => u.sessionUpdate === "tool_call")
    .map((u) => (u as { toolCallId: string }).toolCallId);
  expect(calls).toHaveLength(2);
  const finalStatus = (id: string | undefined) => {
    const last = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id).at(-1);
    return last && "status" in last ? last.status : undefined;
  };
  expect(["completed", "failed"]).toContain(finalStatus(calls[0]));
  expect(finalStatus(calls[1])).toBe("failed");
});

it("answers prompts queued before a cancel with cancelled, without running them", async () => {
  const s = await session(() => Promise.resolve(), []);
  fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "sleep 20" } }] });
  const first = s.prompt([{ type: "text", text: "slow" }]);
  const second = s.prompt([{ type: "text", text: "queued" }]);
  // Cancel once the first turn has asked the model (the fake recorded the request).
  while (fake.requests.length === 0) await new Promise((r) => setImmediate(r));
  s.cancel();
  expect(await first).toBe("cancelled");
  expect(await second).toBe("cancelled");
  expect(fake.requests).toHaveLength(1);
});
