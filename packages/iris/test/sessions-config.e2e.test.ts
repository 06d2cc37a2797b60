// Sessions (short ids, titles, delete, export), `iris config`, `iris models` and `iris setup`,
// as spawned processes against a temp home.
import { readFileSync, statSync, writeFileSync } from "node:fs";
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

const env = (extra: Record<string, string> = {}) => ({ IRIS_HOME: home.home, ...extra });
const route = () => routeArgs(fake.baseUrl, "chat_completions");
const iris = (args: string[], stdin?: string, extra: Record<string, string> = {}) =>
  runIris(args, { env: env(extra), cwd: home.home, ...(stdin !== undefined ? { stdin } : {}) });

describe("sessions", () => {
  it("gives sessions started within a minute distinct short ids and titles from the first prompt", async () => {
    fake.enqueue(
      { text: "a1" },
      { toolCalls: [{ name: "terminal", arguments: { command: "echo hi" } }] },
      { text: "b1" },
    );
    await iris(["-p", "# Fix the **login** bug\nmore detail here", ...route()]);
    await iris(["-p", "Write release notes", "--yolo", ...route()]);
    const list = await iris(["sessions", "list"]);
    const lines = list.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    const ids = lines.map((l) => l.split(/\s+/)[0]!);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(ids).size).toBe(2);
    expect(lines[0]).toContain("Write release notes");
    expect(lines[1]).toContain("Fix the login bug");

    const shown = await iris(["sessions", "show", ids[1]!]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Fix the login bug");
    expect(shown.stdout).toContain("a1");

    const md = await iris(["sessions", "export", ids[0]!, "--format", "md"]);
    expect(md.stdout).toMatch(/^# Write release notes\n/);
    expect(md.stdout).toContain("## User\n\nWrite release notes");
    expect(md.stdout).toContain("**Tool call** `terminal`");
    const json = JSON.parse((await iris(["sessions", "export", ids[0]!, "--format", "json"])).stdout);
    expect(json.title).toBe("Write release notes");
    expect(json.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    const jsonl = (await iris(["sessions", "export", ids[0]!, "--format", "jsonl"])).stdout;
    expect(jsonl.trim().split("\n")).toHaveLength(1);
    const share = JSON.parse(jsonl);
    expect(share.conversations.map((c: { from: string }) => c.from)).toEqual([
      "system",
      "human",
      "gpt",
      "tool",
      "gpt",
    ]);
    expect(share.conversations[2].value).toContain(
      '<tool_call>\n{"name":"terminal","arguments":{"command":"echo hi"}}',
    );
    expect(share.conversations[3].value).toMatch(/^<tool_response>\n\{"name":"terminal"/);

    const deleted = await iris(["sessions", "delete", ids[0]!]);
    expect(deleted.code).toBe(0);
    const after = await iris(["sessions", "list"]);
    expect(after.stdout.trim().split("\n")).toHaveLength(1);
    expect(after.stdout).not.toContain("Write release notes");
    const gone = await iris(["sessions", "show", ids[0]!]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/no session/);
  }, 90_000);

  it("shows an unknown price as unknown, not $0.00000", async () => {
    fake.enqueue({ text: "ok" });
    await iris(["-p", "hi", ...route()]);
    const usage = await iris(["usage"]);
    expect(usage.stdout).toMatch(/custom\/fake-model .* unknown/);
    expect(usage.stdout).not.toContain("$0.00000");
  });
});

describe("iris config", () => {
  it("sets, gets and unsets keys, keeping comments and refusing invalid values", async () => {
    const path = join(home.home, "config.yaml");
    writeFileSync(path, "# my settings\ncompression:\n  # when to compress\n  threshold: 0.5\n");
    const set = await iris(["config", "set", "compression.threshold", "0.7"]);
    expect(set.code).toBe(0);
    let text = readFileSync(path, "utf8");
    expect(text).toContain("# my settings");
    expect(text).toContain("# when to compress");
    expect(text).toContain("threshold: 0.7");
    expect((await iris(["config", "get", "compression.threshold"])).stdout).toBe("0.7\n");

    const bad = await iris(["config", "set", "compression.threshold", "7"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/config\.yaml:\d+:\d+: compression\.threshold/);
    expect(readFileSync(path, "utf8")).toBe(text);
    const unknown = await iris(["config", "set", "compresion.threshold", "0.6"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /config\.yaml:\d+:\d+: compresion: unknown key \(did you mean "compression"\?\)/,
    );
    expect(readFileSync(path, "utf8")).toBe(text);

    expect((await iris(["config", "set", "toolsets.cli", "[file, terminal]"])).code).toBe(0);
    expect((await iris(["config", "get", "toolsets"])).stdout).toMatch(/cli:\n\s+- file\n\s+- terminal/);

    const unset = await iris(["config", "unset", "compression.threshold"]);
    expect(unset.code).toBe(0);
    text = readFileSync(path, "utf8");
    expect(text).not.toContain("threshold");
    expect(text).toContain("# my settings");
    expect((await iris(["config", "get", "compression.threshold"])).stdout).toBe("0.5\n"); // the default
  }, 90_000);
});

describe("models and setup", () => {
  it("lists the catalogue with window and price and marks providers the keys reach", async () => {
    const r = await iris(["models", "--provider", "anthropic"], undefined, {
      ANTHROPIC_API_KEY: "sk-ant-test",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ anthropic\/claude-sonnet-4-5\S*\s+200K\s+\$3 \/ \$15/);
    const none = await iris(["models", "--provider", "anthropic"]);
    expect(none.stdout).not.toMatch(/^✓ anthropic/m);
    expect(none.stdout).toContain("none: see iris setup");
    const bad = await iris(["models", "--provider", "nosuch"]);
    expect(bad.code).toBe(2);
  });

  it("walks a new user through provider, key and model, with the key in .env mode 600", async () => {
    const r = await iris(["setup"], "openai\nsk-test-123\n2\n");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const envFile = join(home.home, ".env");
    expect(readFileSync(envFile, "utf8")).toBe("OPENAI_API_KEY=sk-test-123\n");
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    const config = readFileSync(join(home.home, "config.yaml"), "utf8");
    expect(config).toMatch(/provider: openai/);
    expect(config).not.toContain("sk-test");
    const name = /name: (\S+)/.exec(config)?.[1];
    expect(name).toBeTruthy();
    expect(r.stdout).toContain(`Saved model openai/${name}`);
    const got = await iris(["config", "get", "model.provider"]);
    expect(got.stdout).toBe("openai\n");
  });

  it("sets up a custom endpoint as a providers: entry", async () => {
    const r = await iris(["setup"], `custom\nmybox\n${fake.baseUrl}\n1\nMYBOX_KEY\nsecret\nfake-model\n`);
    expect(r.code).toBe(0);
    const config = readFileSync(join(home.home, "config.yaml"), "utf8");
    expect(config).toMatch(
      /providers:\n\s+mybox:\n\s+base_url: http:\/\/127\.0\.0\.1:\d+\/v1\n\s+api_mode: chat_completions\n\s+api_key_env: MYBOX_KEY/,
    );
    expect(readFileSync(join(home.home, ".env"), "utf8")).toBe("MYBOX_KEY=secret\n");
    fake.enqueue({ text: "custom works" });
    const run = await iris(["-p", "hello"]);
    expect(run.stdout).toBe("custom works\n");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer secret");
  });
});
