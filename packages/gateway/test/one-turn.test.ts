// One turn at a time per session, across front ends (SPEC D1, G4): a chat message for a session a
// terminal's `iris -r ID -p` is running a turn in gets a chat notice saying it is busy, never an
// interleaved history; after that turn the chat goes on in the same session.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { IrisProcess, loadProfile, StoreConversation } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { getLogger } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Gateway } from "../src/runner.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter, message } from "./memory-adapter.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;
let gateway: Gateway | undefined;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-gw-one-turn");
});
afterEach(async () => {
  await gateway?.stop();
  await iris?.close();
  await fake.close();
  dir.cleanup();
});

const until = (pred: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (pred() ? resolve() : setImmediate(check));
    check();
  });

it("a chat message while a terminal's turn holds the chat's session gets a busy notice", async () => {
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}\ngateway:\n  allow_all: true\n`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  const adapter = new MemoryAdapter();
  gateway = new Gateway({
    iris,
    tables: await openGatewayTables(iris),
    adapters: [adapter],
    config: profile.config.gateway,
    cwd: dir.path,
    logger: getLogger({ component: "test" }),
  });
  await gateway.start();
  fake.enqueue({ text: "hello ann" });
  await gateway.handle(message({ text: "hi" }));
  await gateway.settled();
  const sessionId = (await storeOf(iris).listSessions({ limit: 1 }))[0]?.id ?? "";

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  fake.setHandler(async () => {
    await held;
    return { text: "terminal answer" };
  });
  const child = spawn(process.execPath, [IRIS_BIN, "-r", sessionId, "-p", "from the terminal"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: dir.path },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  await until(() => fake.requests.length === 2);

  await gateway.handle(message({ text: "are you there?" }));
  await gateway.settled();
  const notice = adapter.textsTo("ann").slice(1).join("");
  expect(notice).toMatch(/^! session \S+ is busy: another iris \(pid \d+\) is running a turn in it/);
  release();
  expect(await exited).toBe(0);
  expect(fake.requests).toHaveLength(2); // the refused message never reached the model
  const roles = (await (await StoreConversation.open(storeOf(iris), sessionId)).history()).map((m) => m.role);
  expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
});
