// Per-chat state stays bounded (SPEC U6): open sessions are capped and closed when idle, lanes
// go when they have nothing to do, and a chat whose session was closed resumes it from the store.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IrisProcess, loadProfile } from "@iris/host";
import { getLogger } from "@iris/llm";
import { type FakeLlm, type RecordedRequest, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Gateway } from "../src/runner.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter, message } from "./memory-adapter.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
let gateway: Gateway;

type ChatMessage = { role: string; content?: unknown };
const users = (req: RecordedRequest | undefined) =>
  ((req?.body as { messages?: ChatMessage[] } | undefined)?.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => m.content);

beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "ok" }));
  dir = tempDir("iris-gw-bounded");
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}"}}\ngateway:\n  allow_all: true\n`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  gateway = new Gateway({
    iris,
    tables: await openGatewayTables(iris),
    adapters: [new MemoryAdapter()],
    config: profile.config.gateway,
    cwd: dir.path,
    logger: getLogger(),
    maxOpenChats: 2,
  });
  await gateway.start();
});
afterEach(async () => {
  await gateway.stop();
  await iris.close();
  await fake.close();
  dir.cleanup();
});

it("keeps at most maxOpenChats sessions open and resumes a closed chat from the store", async () => {
  for (let i = 0; i < 6; i++) {
    await gateway.handle(
      message({ chatId: `u${i}`, userId: `u${i}`, userName: `u${i}`, text: `first from u${i}` }),
    );
    await gateway.settled();
  }
  expect(iris.openSessions).toBeLessThanOrEqual(2);
  expect(gateway.openChats).toBe(0); // lanes go when idle
  await gateway.handle(message({ chatId: "u0", userId: "u0", userName: "u0", text: "second from u0" }));
  await gateway.settled();
  expect(users(fake.requests.at(-1))).toEqual(["first from u0", "second from u0"]);
});

it("never closes a session a turn is using, with more busy chats than open sessions", async () => {
  await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      gateway.handle(message({ chatId: `c${i}`, userId: `c${i}`, userName: `c${i}`, text: `hello ${i}` })),
    ),
  );
  await gateway.settled();
  const adapter = (
    gateway as unknown as { platforms: Map<string, { adapter: MemoryAdapter }> }
  ).platforms.get("mem")?.adapter;
  for (let i = 0; i < 8; i++) expect(adapter?.textsTo(`c${i}`)).toEqual(["ok"]);
});
