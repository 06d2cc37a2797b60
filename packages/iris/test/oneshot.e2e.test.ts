import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, MODES, routeArgs, runIris, type TempHome } from "./helpers.js";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
});
afterEach(() => close());

const env = () => ({ IRIS_HOME: home.home });
/** Every message the model was sent in the last request, as JSON text. */
const lastRequestText = () => fake.requests[fake.requests.length - 1]!.rawBody.toString("utf8");

describe.each(MODES)("iris -p against %s", (mode) => {
  it("runs a 3-round tool-using turn and prints only the answer", async () => {
    const work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "notes.txt"), "alpha\nbeta\n");
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo round-one" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
      { text: "Done: beta is on line 2." },
    );
    const r = await runIris(["-p", "look around", ...routeArgs(fake.baseUrl, mode)], {
      env: env(),
      cwd: work,
    });
    expect(r.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Done: beta is on line 2.\n");
    expect(fake.requests).toHaveLength(3);
    expect(fake.violations).toEqual([]);
    expect(fake.requests[1]!.rawBody.toString()).toContain("round-one");
    expect(lastRequestText()).toContain("2|beta");
  });

  it("runs parallel calls and returns their results in call order", async () => {
    const work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "a.txt"), "AAA\n");
    writeFileSync(join(work, "b.txt"), "BBB\n");
    fake.enqueue(
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "a.txt" } },
          { name: "read_file", arguments: { path: "b.txt" } },
        ],
      },
      { text: "both read" },
    );
    const r = await runIris(["-p", "read both", ...routeArgs(fake.baseUrl, mode)], { env: env(), cwd: work });
    expect(r.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const body = lastRequestText();
    expect(body.indexOf("AAA")).toBeGreaterThan(0);
    expect(body.indexOf("AAA")).toBeLessThan(body.indexOf("BBB"));
  });

  it("ends a refusal with an honest message and exit code 1", async () => {
    fake.enqueue({ refusal: "I can't help with that.", stopReason: "refusal" });
    const r = await runIris(["-p", "something bad", ...routeArgs(fake.baseUrl, mode)], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/model_refusal: custom\/fake-model: the model declined to answer/);
  });
});

describe.each(MODES)("iris -p guards and tools against %s", (mode) => {
  const args = () => routeArgs(fake.baseUrl, mode);

  it("stops a repeated failing call with convergence_detected", async () => {
    const call = { toolCalls: [{ name: "read_file", arguments: { path: "missing.txt" } }] };
    fake.enqueue(call, call, call, { text: "never reached" });
    const r = await runIris(["-p", "read it", ...args()], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("convergence_detected");
    expect(fake.requests).toHaveLength(3);
  });

  it("refuses an over-limit memory write with the limit and current use", async () => {
    fake.enqueue(
      {
        toolCalls: [
          { name: "memory", arguments: { action: "add", target: "memory", content: "x".repeat(3000) } },
        ],
      },
      { text: "noted the failure" },
    );
    const r = await runIris(["-p", "remember this", ...args()], { env: env() });
    expect(r.code).toBe(0);
    expect(lastRequestText()).toContain("limited to 2200 characters; it holds 0");
  });

  it("denies a dangerous command when nobody can approve it", async () => {
    const work = join(home.home, "work");
    mkdirSync(join(work, "node_modules", "pkg"), { recursive: true });
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf node_modules/" } }] },
      { text: "could not delete" },
    );
    const r = await runIris(["-p", "clean up", ...args()], { env: env(), cwd: work });
    expect(r.code).toBe(0);
    expect(lastRequestText()).toMatch(/not run/);
    const { existsSync } = await import("node:fs");
    expect(existsSync(join(work, "node_modules", "pkg"))).toBe(true);
  });

  it("runs a delegated subtask in a child agent", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "delegate_task", arguments: { goal: "say the magic word" } }] },
      { text: "xyzzy" }, // the child's answer
      { text: "The child said xyzzy." },
    );
    const r = await runIris(["-p", "delegate", ...args()], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("The child said xyzzy.\n");
    const childRequest = fake.requests[1]!.rawBody.toString();
    expect(childRequest).toContain("say the magic word");
    expect(childRequest).not.toContain("delegate_task");
    expect(lastRequestText()).toContain('\\"status\\":\\"completed\\"');
    expect(fake.violations).toEqual([]);
  });
});

describe("iris -p start-up errors", () => {
  const args = () => routeArgs(fake.baseUrl, "chat_completions");

  it("says exactly what to set when no provider is configured (exit 2, no stack trace)", async () => {
    const r = await runIris(["-p", "hi"], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no provider chosen");
    expect(r.stderr).toContain("OPENAI_API_KEY");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 with key and line for an invalid config.yaml", async () => {
    writeFileSync(join(home.home, "config.yaml"), "model:\n  name: 42\n");
    const r = await runIris(["-p", "hi", ...args()], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.yaml:2:\d+: model\.name/);
  });
});
