// Diagnostics go to the profile's logs/iris.log, never into the chat (issue 14): a history that
// send-time shaping must repair warns in the log file, and stderr stays the user's.
import { existsSync, readFileSync } from "node:fs";
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

describe("where diagnostics go", () => {
  it("a shaping repair is logged to logs/iris.log, not printed as JSON on stderr", async () => {
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
    const r = await runIris(
      ["-p", "next", "--resume", s.id, ...routeArgs(fake.baseUrl, "chat_completions")],
      {
        env: { IRIS_HOME: home.home },
      },
    );
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
});
