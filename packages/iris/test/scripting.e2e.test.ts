// The scripting surface (SPEC K5, K6): stdin prompts, output formats, flags, and errors, run as
// spawned processes the way scripts use them.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, IRIS_BIN, routeArgs, runIris, type TempHome } from "./helpers.js";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
});
afterEach(() => close());

const env = () => ({ IRIS_HOME: home.home });
const route = () => routeArgs(fake.baseUrl, "chat_completions");
const bodyOf = (i: number) =>
  fake.requests[i]!.body as {
    messages: { role: string; content: unknown }[];
    tools?: { function: { name: string } }[];
  };
const userText = (i: number) => {
  const users = bodyOf(i).messages.filter((m) => m.role === "user");
  const c = users[users.length - 1]!.content;
  return typeof c === "string" ? c : JSON.stringify(c);
};
const systemText = (i: number) => String(bodyOf(i).messages.find((m) => m.role === "system")?.content ?? "");

describe("the prompt from stdin", () => {
  it("puts the argument first, then piped stdin", async () => {
    fake.enqueue({ text: "summary" });
    const r = await runIris(["-p", "Summarise this:", ...route()], {
      env: env(),
      stdin: "line one\nline two\n",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("summary\n");
    expect(userText(0)).toBe("Summarise this:\n\nline one\nline two");
  });

  it("reads only stdin for -p - and for a plain `iris` with piped input", async () => {
    fake.enqueue({ text: "one" }, { text: "two" });
    const dash = await runIris(["-p", "-", ...route()], { env: env(), stdin: "from stdin only" });
    expect(dash.code).toBe(0);
    expect(userText(0)).toBe("from stdin only");
    const bare = await runIris(route(), { env: env(), stdin: "hi" });
    expect(bare.code).toBe(0);
    expect(bare.stdout).toBe("two\n");
    expect(userText(1)).toBe("hi");
  });

  it("takes a 1 MB prompt on stdin", async () => {
    writeFileSync(join(home.home, "config.yaml"), "model:\n  context_window: 4000000\n");
    const big = `${"word ".repeat(209_715)}END`;
    expect(big.length).toBeGreaterThan(1_000_000);
    fake.enqueue({ text: "read it all" });
    const r = await runIris(["-p", "-", ...route()], { env: env(), stdin: big });
    expect(r.stderr).not.toMatch(/Error|too long/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("read it all\n");
    expect(userText(0).length).toBe(big.length);
    expect(userText(0).endsWith("END")).toBe(true);
  });

  it("says what is missing when there is no prompt at all", async () => {
    const r = await runIris(["-p", "-", ...route()], { env: env(), stdin: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/-p needs a prompt/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("--output-format", () => {
  it("json: one object with answer, session, reason, usage, cost and tool calls", async () => {
    const work = join(home.home, "work");
    mkdirSync(work);
    writeFileSync(join(work, "a.txt"), "alpha\n");
    fake.enqueue(
      { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "missing.txt" } }] },
      { text: "alpha it is" },
    );
    const r = await runIris(["-p", "read", "--output-format", "json", ...route()], { env: env(), cwd: work });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      type: "result",
      text: "alpha it is",
      is_error: false,
      reason: "natural",
      exit_code: 0,
      provider: "custom",
      model: "fake-model",
      rounds: 3,
      cost_usd: null, // fake-model is in no catalogue: its price is unknown, not $0
    });
    expect(out.usage.input_tokens).toBeGreaterThan(0);
    expect(out.tool_calls).toEqual([
      expect.objectContaining({ name: "read_file", arguments: { path: "a.txt" }, is_error: false }),
      expect.objectContaining({ name: "read_file", arguments: { path: "missing.txt" }, is_error: true }),
    ]);
    const shown = await runIris(["sessions", "show", out.session_id], { env: env() });
    expect(shown.stdout).toContain("alpha it is");
  });

  it("stream-json: init, the E5 callbacks as they happen, then one result", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo hi" } }] },
      { text: "said hi" },
    );
    const r = await runIris(["-p", "greet", "--output-format", "stream-json", "--yolo", ...route()], {
      env: env(),
    });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("init");
    expect(events[0].tools).toContain("terminal");
    expect(types[types.length - 1]).toBe("result");
    expect(types.filter((t) => t === "result")).toHaveLength(1);
    const gen = types.indexOf("tool_gen");
    const before = events.findIndex((e) => e.type === "tool_progress" && e.phase === "before");
    const after = events.findIndex((e) => e.type === "tool_progress" && e.phase === "after");
    expect(gen).toBeGreaterThan(0);
    expect(before).toBeGreaterThan(gen);
    expect(after).toBeGreaterThan(before);
    expect(events[gen].call).toMatchObject({ name: "terminal", arguments: { command: "echo hi" } });
    const result = events.findIndex((e) => e.type === "tool_result");
    expect(result).toBeGreaterThan(after);
    expect(events[result]).toMatchObject({ call_id: events[gen].call.id, name: "terminal", is_error: false });
    expect(events[result].content).toContain("hi");
    const text = events
      .filter((e) => e.type === "stream_delta")
      .map((e) => e.text)
      .join("");
    expect(text).toBe("said hi");
    expect(events[events.length - 1]).toMatchObject({ text: "said hi", reason: "natural" });
    expect(r.stderr).toBe("");
  });
});

describe("flags", () => {
  it("--version prints the version", async () => {
    const r = await runIris(["--version"], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("--system-prompt replaces and --append-system-prompt extends the prompt", async () => {
    fake.enqueue({ text: "a" }, { text: "b" });
    await runIris(["-p", "x", "--system-prompt", "You are a parrot.", ...route()], { env: env() });
    expect(systemText(0)).toBe("You are a parrot.");
    await runIris(["-p", "x", "--append-system-prompt", "Always answer in French.", ...route()], {
      env: env(),
    });
    expect(systemText(1).length).toBeGreaterThan(200);
    expect(systemText(1).endsWith("Always answer in French.")).toBe(true);
  });

  it("-C runs in another folder, --toolsets narrows the menu, --verbose logs to stderr", async () => {
    const work = join(home.home, "elsewhere");
    mkdirSync(work);
    writeFileSync(join(work, "b.txt"), "bravo\n");
    fake.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "b.txt" } }] }, { text: "ok" });
    const r = await runIris(["-p", "x", "-C", work, "--toolsets", "file", "--verbose", ...route()], {
      env: env(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok\n");
    expect(JSON.stringify(bodyOf(1).messages)).toContain("1|bravo");
    const tools = (bodyOf(0).tools ?? []).map((t) => t.function.name);
    expect(tools).toContain("read_file");
    expect(tools).not.toContain("terminal");
    expect(r.stderr).toMatch(/model call 1 → custom\/fake-model/);
    expect(r.stderr).toMatch(/tool read_file .* ok in \d+ ms/);

    const badDir = await runIris(["-p", "x", "-C", join(work, "nope"), ...route()], { env: env() });
    expect(badDir.code).toBe(2);
    expect(badDir.stderr).toMatch(/-C .*nope: no such directory/);
    const badSet = await runIris(["-p", "x", "--toolsets", "file,wizardry", ...route()], { env: env() });
    expect(badSet.code).toBe(2);
    expect(badSet.stderr).toMatch(/unknown toolset 'wizardry'/);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("errors a user meets", () => {
  it("`iris help` helps and a mistyped command suggests the right one", async () => {
    const help = await runIris(["help"], { env: env() });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: iris/);
    expect(help.stdout).toMatch(/sessions/);
    const typo = await runIris(["sesions", "list"], { env: env() });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command 'sesions'\. Did you mean 'iris sessions'\?/);
    expect(typo.stderr).not.toMatch(/too many arguments/);
  });

  it("a closed pipe ends a listing quietly", async () => {
    const store = openStore(join(home.home, "state.db"));
    for (let i = 0; i < 300; i++)
      await store.createSession({ source: "cli", title: `session number ${i} `.repeat(5) });
    await store.close();
    for (const args of [["sessions", "list", "-n", "300"], ["models"]]) {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [IRIS_BIN, ...args], {
          env: { PATH: process.env.PATH ?? "", HOME: home.home, ...env() },
          stdio: ["ignore", "pipe", "pipe"],
        });
        child.stdout.destroy(); // the reader is gone before the first line is written
        let stderr = "";
        child.stderr.on("data", (d) => {
          stderr += d;
        });
        child.on("close", (code) => resolve({ code, stderr }));
      });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
    }
  });
});
