// The CLI reaches the chat commands it shares with the gateway through host's one registry.
import { join } from "node:path";
import { boot, type IrisProcess } from "@iris/host";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runSlash, type SlashContext } from "./slash.js";
import type { ChatScreen } from "./ui/chat-screen.js";
import { makeStyle } from "./ui/colors.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-slash");
});
afterEach(async () => {
  await iris?.close();
  dir.cleanup();
  await fake.close();
});

it("/status, /stop and /reset come from the shared registry", async () => {
  const booted = await boot({
    env: { IRIS_HOME: dir.path },
    route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
    platform: "cli",
    source: "cli",
    cwd: join(dir.path),
  });
  if (!booted.ok) throw new Error(booted.message);
  iris = booted.process;
  const session = booted.session;
  await session.startSession();
  let written = "";
  const ctx: SlashContext = {
    session,
    out: { write: (t: string) => (written += t) },
    style: makeStyle(false),
    ask: async () => "",
    // These commands never draw on the screen.
    screen: undefined as unknown as ChatScreen,
    exit: () => {},
    busy: () => false,
  };
  const before = session.id;
  await runSlash("/status", ctx);
  expect(written).toContain(`session ${before.slice(-8)} · custom/fake-model · idle`);
  await runSlash("/stop", ctx);
  expect(written).toContain("nothing is running");
  await runSlash("/reset", ctx);
  expect(session.id).not.toBe(before);
  expect(written).toContain(`new session ${session.id.slice(-8)}`);
  await runSlash("/approve", ctx);
  expect(written).toContain("unknown command /approve");
});
