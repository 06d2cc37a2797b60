// Issue 11: a compression that only prunes old tool outputs (phase 1, no summary) stays in the
// session. The pruned history becomes the session's active branch; the originals stay stored on
// the old branch; no session_split is announced and a resumed session reads the pruned path.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEventMap } from "@iris/agent";
import { type AssistantMessage, type Message, ZERO_USAGE } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boot } from "../src/app/boot.js";
import type { HostEvent } from "../src/app/events.js";
import type { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { storeOf } from "../src/testing.js";

const SUMMARY_MARK = "You compress the middle of a conversation";
let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;

beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-prune");
});
afterEach(async () => {
  await iris?.close();
  iris = undefined;
  dir.cleanup();
  await fake.close();
});

async function bootHost(): Promise<Session> {
  writeFileSync(
    join(dir.path, "config.yaml"),
    "model:\n  context_window: 60000\ncompression:\n  protect_last_n: 4\n",
  );
  const booted = await boot({
    env: { IRIS_HOME: dir.path },
    route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
    platform: "cli",
    source: "cli",
    cwd: dir.path,
  });
  if (!booted.ok) throw new Error(booted.message);
  iris = booted.process;
  return booted.session;
}

const origin = { provider: "custom", apiMode: "chat_completions" as const, model: "fake-model" };
/** One user message, then 24 rounds each reading a different ~2,500-token file. */
async function seed(h: Session): Promise<void> {
  const messages: Message[] = [{ role: "user", content: "read every log" }];
  for (let i = 0; i < 24; i++) {
    const call: AssistantMessage = {
      role: "assistant",
      parts: [
        { type: "toolCall", callId: `call_${i}`, name: "read_file", argumentsJson: `{"path":"log${i}.txt"}` },
      ],
      origin,
      usage: { ...ZERO_USAGE },
      stopReason: "tool_calls",
    };
    const body = `LOG${i} ${`line ${i} of the log says little. `.repeat(300)}`;
    messages.push(call, {
      role: "tool",
      callId: `call_${i}`,
      toolName: "read_file",
      content: body,
      isError: false,
    });
  }
  messages.push({
    role: "assistant",
    parts: [{ type: "text", text: "All logs read." }],
    origin,
    usage: { ...ZERO_USAGE },
    stopReason: "end",
  });
  await storeOf(iris as IrisProcess).appendNodes(
    h.session.id,
    messages.map((message) => ({ kind: "message" as const, message })),
  );
}

describe("a phase-1-only compression", () => {
  it("prunes in place: same session, a new active branch, originals kept, no summary call", async () => {
    const h = await bootHost();
    const session = await h.startSession();
    await seed(h);
    const actions: AgentEventMap["context_overflow_action"][] = [];
    h.events.on("context_overflow_action", (a) => actions.push(a));
    const hostEvents: HostEvent[] = [];
    iris?.subscribe((e) => hostEvents.push(e));
    fake.setHandler(() => ({ text: "Nothing alarming." }));

    const result = await (await h.newAgent()).run("anything alarming?");
    expect(result.reason).toBe("natural");
    expect(actions.map((a) => a.action)).toEqual(["compressed"]);
    expect(actions[0]?.detail).toMatch(/^phase 1: \d+ → about \d+ tokens .*same session$/);
    expect(fake.requests.some((r) => r.rawBody.toString("utf8").includes(SUMMARY_MARK))).toBe(false);
    expect(hostEvents.filter((e) => e.name === "session_split")).toEqual([]);

    // Same session, still open, the only one.
    expect(h.session.id).toBe(session.id);
    expect((await storeOf(iris as IrisProcess).getSession(session.id)).endedAt).toBeNull();
    expect((await storeOf(iris as IrisProcess).listSessions({ limit: 10 })).map((s) => s.id)).toEqual([
      session.id,
    ]);
    // The model saw the old outputs pruned; the active path holds them pruned, the turn appended.
    const sent = fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
    expect(sent).not.toContain("line 0 of the log");
    expect(sent).toContain("anything alarming?");
    const path = await storeOf(iris as IrisProcess).activePath(session.id);
    const texts = path.map((n) => JSON.stringify(n.message));
    expect(texts.some((t) => t.includes("line 0 of the log"))).toBe(false);
    expect(texts.at(-1)).toContain("Nothing alarming.");
    expect(path.filter((n) => n.kind === "message")).toHaveLength(1 + 48 + 1 + 2);
    // The originals are kept on the old branch.
    const branches = await storeOf(iris as IrisProcess).listBranches(session.id);
    expect(branches).toHaveLength(2);
    const old = branches.find((b) => b.id !== path.at(-1)?.id);
    expect(
      JSON.stringify((await storeOf(iris as IrisProcess).pathToRoot(old?.id ?? "")).map((n) => n.message)),
    ).toContain("line 0 of the log");

    // A resumed session reads the pruned path: the next turn's request is the small one.
    const before = fake.requests.length;
    const again = await (await h.newAgent()).run("and now?");
    expect(again.reason).toBe("natural");
    const next = fake.requests.slice(before);
    expect(next).toHaveLength(1);
    expect(next[0]?.rawBody.toString("utf8")).not.toContain("line 0 of the log");
    expect(actions).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });

  it("/compress that only prunes stays in the session too", async () => {
    const h = await bootHost();
    const session = await h.startSession();
    await seed(h);
    const done = await h.compressNow();
    expect(done).toMatchObject({ ok: true, phase: 1, sessionId: session.id });
    expect(h.session.id).toBe(session.id);
    expect(await storeOf(iris as IrisProcess).listBranches(session.id)).toHaveLength(2);
    expect(fake.requests).toHaveLength(0);
  });
});
