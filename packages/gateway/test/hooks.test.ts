// Gateway hooks: handler scripts in the profile's hooks/ folder get each event as JSON on stdin,
// in the background, and one that hangs is killed at the timeout.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { IrisProcess, loadProfile } from "@iris/host";
import { getLogger } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Hooks } from "../src/hooks.js";
import { Gateway } from "../src/runner.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter, message } from "./memory-adapter.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "ok" }));
  dir = tempDir("iris-gw-hooks");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

function hook(name: string, body: string): void {
  const hooks = join(dir.path, "hooks");
  mkdirSync(hooks, { recursive: true });
  writeFileSync(join(hooks, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(hooks, name), 0o755);
}

it("runs the profile's handlers for startup, session start, agent start/end and commands", async () => {
  const log = join(dir.path, "events.log");
  for (const name of [
    "gateway.startup",
    "session.start",
    "session.reset",
    "agent.start",
    "agent.end",
    "command",
  ])
    hook(name, `cat >> "${log}"`);
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}"}}\ngateway:\n  allow_all: true\n`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  const gateway = new Gateway({
    iris,
    tables: await openGatewayTables(iris),
    adapters: [new MemoryAdapter()],
    config: profile.config.gateway,
    cwd: dir.path,
    logger: getLogger(),
  });
  await gateway.start();
  await gateway.handle(message({ text: "hello" }));
  await gateway.settled();
  await gateway.handle(message({ text: "/new" }));
  await gateway.stop();
  await iris.close();
  const events = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { event: string; chat?: string });
  expect(events.map((e) => e.event).sort()).toEqual(
    ["agent:end", "agent:start", "command:new", "gateway:startup", "session:reset", "session:start"].sort(),
  );
  expect(events.find((e) => e.event === "agent:end")).toMatchObject({
    chat: "mem:dm:ann",
    reason: "natural",
  });
});

it("kills a handler that outlives its timeout", async () => {
  hook("agent.end", "sleep 30");
  const hooks = new Hooks(join(dir.path, "hooks"), getLogger(), 200);
  const t0 = Date.now();
  hooks.emit("agent:end", {});
  await hooks.idle();
  expect(Date.now() - t0).toBeLessThan(20_000); // killed, not waited for (30 s)
});

it("starts handlers without provider keys in their environment", async () => {
  const out = join(dir.path, "env.txt");
  hook("agent.end", `env > "${out}"`);
  process.env.IRIS_TEST_HOOK_API_KEY = "sk-hook-secret-123456";
  try {
    const hooks = new Hooks(join(dir.path, "hooks"), getLogger(), 5_000);
    hooks.emit("agent:end", {});
    await hooks.idle();
  } finally {
    delete process.env.IRIS_TEST_HOOK_API_KEY;
  }
  const env = readFileSync(out, "utf8");
  expect(env).toContain("IRIS_HOOK_EVENT=agent:end");
  expect(env).not.toContain("sk-hook-secret-123456");
});
