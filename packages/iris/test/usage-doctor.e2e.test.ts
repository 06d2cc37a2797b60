// `iris usage` and `iris doctor` as a user runs them: the built bin, a temp home, the fake LLM.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { estimateCost, lookupModel, type Message, ZERO_USAGE } from "@iris/llm";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
  chmodSync(home.home, 0o700);
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

const env = () => ({ IRIS_HOME: home.home });
/** Dollars as iris usage prints them (cli usage-view.ts). */
const formatUsd = (x: number) => `$${x.toFixed(x < 0.01 ? 5 : 4)}`;
const MODEL = "gpt-4o";

describe("iris usage", () => {
  it("shows a 3-round turn over a 40K context as 120,000 input tokens, 75 % cached, priced from the catalogue", async () => {
    const usage = { input: 40_000, cacheRead: 30_000, output: 200, reasoning: 0 };
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo one" } }], usage },
      { toolCalls: [{ name: "terminal", arguments: { command: "echo two" } }], usage },
      { text: "done", usage },
    );
    const route = [
      "--provider",
      "openai",
      "--base-url",
      fake.baseUrl,
      "--model",
      MODEL,
      "--api-mode",
      "chat_completions",
    ];
    const run = await runIris(["-p", "go", ...route], { env: env(), cwd: home.home });
    expect(run.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    expect(run.code).toBe(0);
    expect(fake.requests).toHaveLength(3);

    const list = await runIris(["usage"], { env: env() });
    expect(list.code).toBe(0);
    const row = list.stdout.split("\n").find((l) => l.includes(`openai/${MODEL}`));
    expect(row).toBeDefined();
    const prefix = row!.slice(0, 8);
    expect(row).toMatch(/\s3\s+120,000\s+75\.0 %\s+600\s/);
    expect(list.stdout).toMatch(/total \(1 session\)/);

    const one = await runIris(["usage", "--session", prefix], { env: env() });
    expect(one.code).toBe(0);
    expect(one.stderr).toBe("");
    const calls = one.stdout.split("\n").filter((l) => /^\s+\d+\s+openai\//.test(l));
    expect(calls).toHaveLength(3);
    for (const c of calls) expect(c).toMatch(/40,000\s+30,000\s+75\.0 %/);
    const summed = {
      ...ZERO_USAGE,
      inputTokens: 3 * usage.input,
      cacheReadTokens: 3 * usage.cacheRead,
      outputTokens: 3 * usage.output,
    };
    const expected = estimateCost(summed, lookupModel("openai", MODEL).info);
    expect(expected).toBeGreaterThan(0);
    expect(one.stdout).toContain("3 API calls · input 120,000 tokens (cache read 90,000, 75.0 % hit;");
    expect(one.stdout).toContain(`cost ${formatUsd(expected)}`);
    // The session budget counts the agent's work, and says what is left (SPEC L4).
    expect(one.stdout).toMatch(
      /agent time: \d+ s of 2 h 00 min in 1 turn; (1 h 59|2 h 00) min left \(idle time is not counted\)/,
    );
  });

  it("--by model and --by day total every session's calls; a wrong --by is a usage error", async () => {
    for (const model of ["gpt-4o", "gpt-4o-mini"]) {
      fake.enqueue({ text: "ok", usage: { input: 1000, cacheRead: 0, output: 10, reasoning: 0 } });
      const route = ["--provider", "openai", "--base-url", fake.baseUrl, "--model", model];
      const run = await runIris(["-p", "hi", ...route, "--api-mode", "chat_completions"], {
        env: env(),
        cwd: home.home,
      });
      expect(run.code).toBe(0);
    }
    const byModel = await runIris(["usage", "--by", "model"], { env: env() });
    expect(byModel.code).toBe(0);
    expect(byModel.stdout).toMatch(/^openai\/gpt-4o\s+1\s+1,000\s/m);
    expect(byModel.stdout).toMatch(/^openai\/gpt-4o-mini\s+1\s+1,000\s/m);
    expect(byModel.stdout).toMatch(/^total\s+2\s+2,000\s/m);
    const byDay = await runIris(["usage", "--by", "day", "--days", "7"], { env: env() });
    const today = new Date().toISOString().slice(0, 10);
    expect(byDay.stdout).toMatch(new RegExp(`^${today}\\s+2\\s+2,000\\s`, "m"));
    expect(byDay.stdout).toContain("(the last 7 days (UTC))");
    const wrong = await runIris(["usage", "--by", "week"], { env: env() });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("week");
  });

  it("an unknown session is a usage error on stderr", async () => {
    const r = await runIris(["usage", "--session", "nope-nope"], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no session 'nope-nope'");
  });
});

describe("iris doctor", () => {
  const writeConfig = (text: string) => writeFileSync(join(home.home, "config.yaml"), text, { mode: 0o600 });
  const writeEnv = (text: string, mode = 0o600) => {
    const p = join(home.home, ".env");
    writeFileSync(p, text);
    chmodSync(p, mode);
    return p;
  };
  const cleanConfig = [
    "model: {provider: openai, name: gpt-4o-mini}",
    "fallback_providers:",
    "  - {provider: openai, model: gpt-4o}",
    "",
  ].join("\n");

  it("exits 0 on a clean profile, with only the report on stdout", async () => {
    writeConfig(cleanConfig);
    writeEnv("OPENAI_API_KEY=sk-test-0123456789abcdef\n");
    const r = await runIris(["doctor", "--offline"], { env: env() });
    expect(r.stdout).not.toMatch(/^✗/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^iris doctor · profile default/);
    expect(r.stdout).toMatch(
      /^✓ fallback 1 \(openai\/gpt-4o\) key: OPENAI_API_KEY from .*\.env: readable and writable/m,
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(/^all checks passed/);
    expect(r.stdout).not.toContain("sk-test-0123456789abcdef");
  });

  it("warns about a key exported in the shell by name, never by value", async () => {
    writeConfig(cleanConfig);
    const p = writeEnv("OPENAI_API_KEY=sk-test-0123456789abcdef\n");
    const r = await runIris(["doctor", "--offline"], {
      env: { ...env(), ANTHROPIC_API_KEY: "sk-ant-exported-0123456789" },
    });
    expect(r.stdout).toMatch(/shell environment: ANTHROPIC_API_KEY is exported in the shell/);
    expect(r.stdout).toContain(`keep the key in ${p}`);
    expect(r.stdout + r.stderr).not.toContain("sk-ant-exported-0123456789");
  });

  it("a world-readable .env exits 1 and names chmod 600", async () => {
    writeConfig(cleanConfig);
    const p = writeEnv("OPENAI_API_KEY=sk-test-0123456789abcdef\n", 0o644);
    const r = await runIris(["doctor", "--offline"], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ \.env: .* has mode 644/m);
    expect(r.stdout).toContain(`fix: chmod 600 ${p}`);
  });

  it("a .env that cannot be read (a folder in its place) fails, and so does every route needing its key", async () => {
    writeConfig(cleanConfig);
    mkdirSync(join(home.home, ".env"));
    const r = await runIris(["doctor", "--offline"], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ \.env: .* is not a file/m);
    expect(r.stdout).toMatch(/^✗ main route: provider 'openai' needs OPENAI_API_KEY/m);
    expect(r.stdout).toMatch(/^✗ fallback 1 \(openai\/gpt-4o\): provider 'openai' needs OPENAI_API_KEY/m);
  });

  it("an unknown model of a custom endpoint is a warning naming model.context_window, not a failure", async () => {
    writeConfig(
      `model: {provider: custom, name: no-such-model}\nproviders: {custom: {base_url: '${fake.baseUrl}'}}\n`,
    );
    const r = await runIris(["doctor", "--offline"], { env: env() });
    expect(r.stdout).not.toMatch(/^✗/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^! main route model: custom\/no-such-model is in no catalogue: the default window of 128,000/m,
    );
    expect(r.stdout).toMatch(/fix: .*model\.context_window/);
  });

  it("a broken stored history fails; --repair persists the repair and the next run exits 0", async () => {
    writeConfig(cleanConfig);
    writeEnv("OPENAI_API_KEY=sk-test-0123456789abcdef\n");
    const store = openStore(join(home.home, "state.db"));
    const session = store.createSession({ source: "cli" });
    const origin = { provider: "openai", apiMode: "chat_completions" as const, model: "gpt-4o-mini" };
    const messages: Message[] = [
      { role: "user", content: "run it" },
      {
        role: "assistant",
        parts: [{ type: "toolCall", callId: "call-1", name: "terminal", argumentsJson: '{"command":"ls"}' }],
        origin,
        usage: ZERO_USAGE,
        stopReason: "tool_calls",
      },
      { role: "user", content: "hello?" },
    ];
    store.appendNodes(
      session.id,
      messages.map((message) => ({ kind: "message" as const, message })),
    );
    store.close();

    const broken = await runIris(["doctor", "--offline"], { env: env() });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`✗ session ${session.id.slice(-8)}: the history is broken`);
    expect(broken.stdout).toContain("tool call call-1 (terminal) without a result");
    expect(broken.stdout).toContain("fix: iris doctor --repair");

    const repaired = await runIris(["doctor", "--repair", "--offline"], { env: env() });
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain(`✓ session ${session.id.slice(-8)}: repaired`);

    const again = await runIris(["doctor", "--offline"], { env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("✓ stored history: 1 session, none broken");
  });
});
