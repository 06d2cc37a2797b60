// Diagnostics go to the profile's logs/iris.log, never into the chat (issue 14): a history that
// send-time shaping must repair warns in the log file, and stderr stays the user's; the level can
// be set in the profile's .env.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { ZERO_USAGE } from "@iris/llm";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

/** Resumes a stored history that send-time shaping must repair (a warning) with `.env` as given. */
async function resumeRepaired(dotenv?: string) {
  if (dotenv !== undefined) {
    mkdirSync(home.home, { recursive: true });
    writeFileSync(join(home.home, ".env"), dotenv, { mode: 0o600 });
  }
  // A stored history with a tool result whose call is gone: shaping drops it before sending.
  const store = openStore(join(home.home, "state.db"));
  const s = await store.createSession({ source: "cli", systemPrompt: "You are a test." });
  await store.appendNodes(s.id, [
    { kind: "message", message: { role: "user", content: "earlier question" } },
    {
      kind: "message",
      message: {
        role: "assistant",
        parts: [{ type: "text", text: "earlier answer" }],
        origin: { provider: "custom", apiMode: "chat_completions", model: "fake-model" },
        usage: { ...ZERO_USAGE },
        stopReason: "end",
      },
    },
    {
      kind: "message",
      message: {
        role: "tool",
        callId: "call_gone",
        toolName: "terminal",
        content: "stray",
        isError: false,
      },
    },
  ]);
  await store.close();
  fake.enqueue({ text: "fine" });
  return runIris(["-p", "next", "--resume", s.id, ...routeArgs(fake.baseUrl, "chat_completions")], {
    env: { IRIS_HOME: home.home },
  });
}

const logLines = (): { level: string; component?: string }[] => {
  const log = join(home.home, "logs", "iris.log");
  return existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
};

describe("where diagnostics go", () => {
  it("a shaping repair is logged to logs/iris.log, not printed as JSON on stderr", async () => {
    const r = await resumeRepaired();
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
    expect(fake.requests.at(-1)?.rawBody.toString("utf8")).not.toContain("stray");
    expect(r.stderr).not.toMatch(/^\{"time"/m);
    const log = join(home.home, "logs", "iris.log");
    expect(existsSync(log)).toBe(true);
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.level === "warn" && l.component === "shaping")).toBe(true);
  });

  it("takes IRIS_LOG_LEVEL from the profile's .env", async () => {
    const r = await resumeRepaired("IRIS_LOG_LEVEL=error\n");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(logLines().filter((l) => l.level === "warn")).toEqual([]);
  });
});
