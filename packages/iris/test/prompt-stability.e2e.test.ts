// SPEC U5 / S2 / P6 end to end: what `iris -p` sends is byte-stable. Two processes on the same
// home and folder send the same first request; in a 20-round tool session every request begins
// with the previous request's bytes up to its newest messages; a resumed session sends its stored
// system prompt byte for byte even after the files it was built from changed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm, ScriptedReply } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, MODES, routeArgs, runIris, type TempHome } from "./helpers.js";

type Mode = (typeof MODES)[number];
type Json = Record<string, unknown>;

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(() => close());

const env = () => ({ IRIS_HOME: home.home });
const HISTORY_KEY: Record<Mode, string> = {
  chat_completions: "messages",
  responses: "input",
  anthropic_messages: "messages",
};

function bodyText(i: number): string {
  const req = fake.requests[i];
  if (!req) throw new Error(`no request #${i}`);
  return req.rawBody.toString("utf8");
}

/** The system prompt as sent: Chat's system message, Responses' instructions, Anthropic's system blocks. */
function systemPromptOf(text: string, mode: Mode): string {
  const body = JSON.parse(text) as Json;
  if (mode === "responses") return String(body.instructions);
  if (mode === "anthropic_messages")
    return (body.system as { text: string }[]).map((b) => b.text).join("\n\n");
  const first = (body.messages as { role: string; content: unknown }[])[0];
  expect(first?.role).toBe("system");
  return String(first?.content);
}

const isToolResult = (m: Json) =>
  m.role === "tool" ||
  m.type === "function_call_output" ||
  (m.role === "user" &&
    Array.isArray(m.content) &&
    (m.content as Json[]).some((b) => b.type === "tool_result"));
const isModelOutput = (m: Json) =>
  m.role === "assistant" || m.type === "function_call" || m.type === "reasoning";

/** Index of the first of the newest messages: the last round's model output and its results, or the last user message. */
function newestStart(history: Json[]): number {
  let i = history.length;
  while (i > 0 && isToolResult(history[i - 1] as Json)) i--;
  while (i > 0 && isModelOutput(history[i - 1] as Json)) i--;
  return i === history.length ? history.length - 1 : i;
}

/**
 * The request's bytes before its newest messages. The body is compact JSON with the history as
 * its last key, so the offset is found by serialising the body with the older messages only.
 */
function bytesBeforeNewest(text: string, mode: Mode): string {
  const body = JSON.parse(text) as Json;
  expect(JSON.stringify(body)).toBe(text);
  const key = HISTORY_KEY[mode];
  expect(Object.keys(body).at(-1)).toBe(key);
  const history = body[key] as Json[];
  const cut = newestStart(history);
  expect(cut).toBeGreaterThanOrEqual(0);
  const head = JSON.stringify({ ...body, [key]: history.slice(0, cut) });
  expect(head.endsWith("]}")).toBe(true);
  // Without its closing `]}`; a comma follows when older messages stay in front of the newest.
  return head.slice(0, -2) + (cut > 0 ? "," : "");
}

function readCalls(rounds: number): ScriptedReply[] {
  const steps: ScriptedReply[] = [];
  for (let i = 1; i < rounds; i++) {
    const file = `f${String(i).padStart(2, "0")}.txt`;
    writeFileSync(join(work, file), `contents of file ${i}\n`);
    steps.push({ toolCalls: [{ name: "read_file", arguments: { path: file } }] });
  }
  steps.push({ text: "all read" });
  return steps;
}

describe.each(MODES)("prompt stability against %s", (mode) => {
  it("two separate processes on the same home and folder send byte-identical first requests", async () => {
    writeFileSync(join(work, "AGENTS.md"), "Run the tests before you commit.\n");
    writeFileSync(join(home.home, "MEMORY.md"), "The user prefers short answers.\n");
    fake.enqueue({ text: "one" }, { text: "two" });
    const day = () => new Date().toDateString();
    const dayBefore = day();
    const a = await runIris(["-p", "same question", ...routeArgs(fake.baseUrl, mode)], {
      env: env(),
      cwd: work,
    });
    const b = await runIris(["-p", "same question", ...routeArgs(fake.baseUrl, mode)], {
      env: env(),
      cwd: work,
    });
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(fake.violations).toEqual([]);
    expect(fake.requests).toHaveLength(2);
    const [first, second] = [bodyText(0), bodyText(1)];
    // The prompt's project and memory layers were really read, so identity is not vacuous.
    expect(first).toContain("Run the tests before you commit.");
    expect(first).toContain("The user prefers short answers.");
    // The prompt carries the date: a run that straddles midnight may differ there, nowhere else.
    const undated = (t: string) => (day() === dayBefore ? t : t.replace(/\d{4}-\d{2}-\d{2}/g, "DATE"));
    expect(undated(second)).toBe(undated(first));
  });

  it("in a 20-round tool session every request begins with the previous one up to its newest messages", async () => {
    const steps = readCalls(20);
    fake.enqueue(...steps);
    const r = await runIris(["-p", "read every file", ...routeArgs(fake.baseUrl, mode)], {
      env: env(),
      cwd: work,
    });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("all read\n");
    expect(fake.violations).toEqual([]);
    expect(fake.requests).toHaveLength(20);
    for (let i = 1; i < 20; i++) {
      const prefix = bytesBeforeNewest(bodyText(i - 1), mode);
      const next = bodyText(i);
      if (!next.startsWith(prefix)) {
        let at = 0;
        while (at < prefix.length && prefix[at] === next[at]) at++;
        throw new Error(
          `request ${i + 1} departs from request ${i} at byte ${at} of ${prefix.length}:\n` +
            `  was: ${JSON.stringify(prefix.slice(Math.max(0, at - 60), at + 60))}\n` +
            `  now: ${JSON.stringify(next.slice(Math.max(0, at - 60), at + 60))}`,
        );
      }
      // The tool result of round i is in request i+1, and the system prompt never changes.
      expect(next).toContain(`contents of file ${i}`);
      expect(systemPromptOf(next, mode)).toBe(systemPromptOf(bodyText(0), mode));
    }
  }, 90_000);

  it("a resumed session sends its stored system prompt byte for byte", async () => {
    writeFileSync(join(work, "AGENTS.md"), "Old project rule.\n");
    fake.enqueue({ text: "first answer" }, { text: "second answer" }, { text: "fresh answer" });
    const args = routeArgs(fake.baseUrl, mode);
    const first = await runIris(["-p", "remember this", ...args], { env: env(), cwd: work });
    expect(first.code).toBe(0);
    const list = await runIris(["sessions", "list"], { env: env(), cwd: work });
    const id = list.stdout.trim().split(/\s+/)[0];
    expect(id).toMatch(/^[0-9a-f-]{8,}$/);

    // What the prompt is built from changes between the two processes.
    writeFileSync(join(work, "AGENTS.md"), "New project rule.\n");
    writeFileSync(join(home.home, "MEMORY.md"), "Written after the session started.\n");
    const resumed = await runIris(["-p", "and now?", "--resume", String(id), ...args], {
      env: env(),
      cwd: work,
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("second answer\n");
    const stored = systemPromptOf(bodyText(0), mode);
    expect(stored).toContain("Old project rule.");
    expect(systemPromptOf(bodyText(1), mode)).toBe(stored);
    expect(bodyText(1)).toContain("first answer");

    // Control: a new session does pick the changes up, so the equality above is not an accident.
    const fresh = await runIris(["-p", "new session", ...args], { env: env(), cwd: work });
    expect(fresh.code).toBe(0);
    const rebuilt = systemPromptOf(bodyText(2), mode);
    expect(rebuilt).toContain("New project rule.");
    expect(rebuilt).toContain("Written after the session started.");
  });
});
