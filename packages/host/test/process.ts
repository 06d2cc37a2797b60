// Shared set-up of the host e2e tests: a fake LLM server, a temp IRIS_HOME and an IrisProcess on it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { loadProfile } from "../src/config/index.js";

export type OpenedProcess = { fake: FakeLlm; dir: TempDir; iris: IrisProcess; close: () => Promise<void> };

/** Sets up a fake server, a temp home (`prefix`) with `config` as its config.yaml when given, and a process on it; `close` ends all three. */
export async function openProcess(
  prefix: string,
  config?: string | ((fake: FakeLlm) => string),
): Promise<OpenedProcess> {
  const fake = await startFakeLlm();
  const dir = tempDir(prefix);
  if (config !== undefined)
    writeFileSync(join(dir.path, "config.yaml"), typeof config === "string" ? config : config(fake));
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const iris = await IrisProcess.open({ profile, platform: "cli" });
  const close = async () => {
    await iris.close();
    await fake.close();
    dir.cleanup();
  };
  return { fake, dir, iris, close };
}

/** Sets up a started session of `iris` in `cwd` (made if missing) on the fake server's chat-completions route. */
export async function startSession(
  iris: IrisProcess,
  fake: FakeLlm,
  cwd: string,
  source = "test",
): Promise<Session> {
  mkdirSync(cwd, { recursive: true });
  const s = iris.openSession({
    source,
    cwd,
    route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
  });
  await s.startSession();
  return s;
}

/** A chat message's content as text: the string itself, else its JSON. */
export const textOf = (m: { content?: unknown } | undefined): string =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
