// Issue 13, item 7, end to end: the built `iris` runs `env` through the terminal tool; no provider
// key variable, configured api_key_env or registered secret value reaches the command, and the
// store's files are private (mode 600).
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

describe("secrets kept from child processes", () => {
  it("strips key variables and secret values from the terminal's environment", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      `providers:\n  custom:\n    base_url: ${fake.baseUrl}\n    api_key_env: MY_LLM_KEY\n`,
    );
    fake.enqueue(
      {
        toolCalls: [
          {
            name: "terminal",
            arguments: { command: 'env; stat -c "%a %n" "$IRIS_HOME"/state.db*' },
          },
        ],
      },
      { text: "done" },
    );
    const r = await runIris(["-p", "show the environment", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: {
        IRIS_HOME: home.home,
        MY_LLM_KEY: "my-llm-key-value-0001",
        AWS_BEARER_TOKEN_BEDROCK: "bedrock-token-value-0002",
        INNOCENT_LOOKING: "my-llm-key-value-0001",
        VISIBLE_MARKER: "visible-marker-value",
      },
      cwd: home.home,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer my-llm-key-value-0001");
    const toolResult = fake.requests[1]?.rawBody.toString("utf8") ?? "";
    expect(toolResult).toContain("visible-marker-value");
    expect(toolResult).not.toContain("MY_LLM_KEY");
    expect(toolResult).not.toContain("my-llm-key-value-0001");
    expect(toolResult).not.toContain("AWS_BEARER_TOKEN_BEDROCK");
    expect(toolResult).not.toContain("INNOCENT_LOOKING");
    // The database and its WAL/SHM files, seen by the command while iris holds them open.
    expect(toolResult).toMatch(/600 [^\s"]*state\.db\\n/);
    expect(toolResult).toMatch(/600 [^\s"]*state\.db-wal/);
    expect(statSync(join(home.home, "state.db")).mode & 0o777).toBe(0o600);
  }, 60_000);
});
