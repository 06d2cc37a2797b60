import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEventMap, IrisProcess, Session } from "@iris/host";
import { boot } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { type AssistantMessage, type Message, ZERO_USAGE } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runSlash, type SlashContext } from "./slash.js";
import type { ChatScreen } from "./ui/chat-screen.js";
import { makeStyle } from "./ui/colors.js";

const SUMMARY_MARK = "You compress the middle of a conversation";
let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;

beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-ctx");
});
afterEach(async () => {
  await iris?.close();
  iris = undefined;
  dir.cleanup();
  await fake.close();
});

/** A chat's slash context writing to `write`; these commands never ask or draw on the screen. */
function slashContext(session: Session, write: (s: string) => unknown): SlashContext {
  const never = (what: string) => () => {
    throw new Error(`the command unexpectedly used ${what}`);
  };
  return {
    session,
    out: { write },
    style: makeStyle(false),
    ask: async (question) => never(`ask(${question})`)(),
    screen: new Proxy({} as ChatScreen, { get: (_t, key) => never(`screen.${String(key)}`) }),
    exit: () => {},
    busy: () => false,
  };
}

async function bootHost(config: string): Promise<Session> {
  writeFileSync(join(dir.path, "config.yaml"), config);
  writeFileSync(join(dir.path, "AGENTS.md"), "Always run the linter before committing.\n");
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
/** The booted process's store (what was stored is read there, not through the session). */
function storeNow() {
  if (!iris) throw new Error("no process booted");
  return storeOf(iris);
}

function prose(i: number, words: number): AssistantMessage {
  return {
    role: "assistant",
    parts: [{ type: "text", text: `answer ${i}: ${"word ".repeat(words)}` }],
    origin,
    usage: { ...ZERO_USAGE },
    stopReason: "end",
  };
}

/** 30 exchanges of ~2,000 estimated tokens each: over the 45,000 trigger of a 60K window. */
async function seed(h: Session): Promise<void> {
  const messages: Message[] = [];
  for (let i = 0; i < 30; i++) messages.push({ role: "user", content: `question ${i}` }, prose(i, 2_000));
  await storeNow().appendNodes(
    h.session.id,
    messages.map((message) => ({ kind: "message" as const, message })),
  );
}

function collect<K extends keyof AgentEventMap>(h: Session, name: K): AgentEventMap[K][] {
  const seen: AgentEventMap[K][] = [];
  h.events.on(name, (p) => seen.push(p));
  return seen;
}

describe("compression in the running agent", () => {
  it("an interrupt during the summary call returns at once: the stalled summary is abandoned", async () => {
    const h = await bootHost("model:\n  context_window: 60000\ncompression:\n  protect_last_n: 2\n");
    const parent = await h.startSession();
    await seed(h);
    fake.setHandler((req) =>
      req.rawBody.toString("utf8").includes(SUMMARY_MARK) ? { fault: "stall" } : { text: "The answer." },
    );
    const controller = new AbortController();
    const pending = h.send("question 30", { signal: controller.signal });
    // Abort once the (stalling) summary request has arrived.
    while (!fake.requests.some((r) => r.rawBody.toString("utf8").includes(SUMMARY_MARK)))
      await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const result = await pending;
    expect(result.reason).toBe("user_cancelled");
    // No model call after the summary: the turn ended there, and the session did not split.
    expect(fake.requests).toHaveLength(1);
    expect(h.session.id).toBe(parent.id);
  });

  it("compresses at turn entry, splits the session, continues in the child with a rebuilt prompt", async () => {
    const h = await bootHost("model:\n  context_window: 60000\ncompression:\n  protect_last_n: 2\n");
    const parent = await h.startSession();
    await seed(h);
    const actions = collect(h, "context_overflow_action");
    fake.setHandler((req) =>
      req.rawBody.toString("utf8").includes(SUMMARY_MARK)
        ? { text: "SUMMARY: thirty questions answered.", usage: { input: 20_000 } }
        : { text: "The answer.", usage: { input: 12_345 } },
    );
    const result = await h.send("question 30");
    expect(result.reason).toBe("natural");
    expect(actions.map((a) => a.action)).toEqual(["compressed"]);
    expect(actions[0]?.detail).toMatch(/^phase 2: \d+ → about \d+ tokens/);

    const child = h.session;
    expect(child.id).not.toBe(parent.id);
    expect(child.parentSessionId).toBe(parent.id);
    expect((await storeNow().getSession(parent.id)).endReason).toBe("compressed");
    expect(child.systemPrompt).toBeTruthy();
    // The model saw the summary (with AGENTS.md re-injected) and not the summarised middle.
    const main = fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
    expect(main).toContain("SUMMARY: thirty questions answered.");
    expect(main).toContain("Always run the linter before committing.");
    expect(main).not.toContain("answer 5:");
    expect(main).toContain("question 30");
    // The reply went into the child; the parent keeps the originals only.
    const childTexts = (await storeNow().activePath(child.id)).map((n) => JSON.stringify(n.message));
    expect(childTexts.some((t) => t.includes("The answer."))).toBe(true);
    expect(
      (await storeNow().activePath(parent.id)).some((n) => JSON.stringify(n.message).includes("The answer.")),
    ).toBe(false);
    // The report reads the measured prompt of the child and counts the compression.
    const report = await h.context.report();
    expect(report).toContain("last prompt        12,345 tokens (measured by the API)");
    expect(report).toContain(`compressions       1 so far (first session ${parent.id})`);
  });

  it("does nothing when compression.enabled is false", async () => {
    const h = await bootHost("model:\n  context_window: 60000\ncompression:\n  enabled: false\n");
    const s = await h.startSession();
    await seed(h);
    fake.setHandler(() => ({ text: "fine" }));
    const result = await h.send("question 30");
    expect(result.reason).toBe("natural");
    expect(h.session.id).toBe(s.id);
    expect(fake.requests.some((r) => r.rawBody.toString("utf8").includes(SUMMARY_MARK))).toBe(false);
  });

  it("fails closed: the summary fails, the history stays whole, the user is told why", async () => {
    const h = await bootHost("model:\n  context_window: 60000\ncompression:\n  protect_last_n: 2\n");
    const s = await h.startSession();
    await seed(h);
    const status = collect(h, "status");
    const critical = collect(h, "context_critical");
    fake.setHandler((req) =>
      req.rawBody.toString("utf8").includes(SUMMARY_MARK)
        ? { fault: "status", status: 400, body: { error: { message: "no summaries today" } } }
        : { text: "still here" },
    );
    const result = await h.send("question 30");
    expect(result.reason).toBe("natural");
    expect(h.session.id).toBe(s.id);
    const warn = status.find((e) => e.level === "warn" && /Context compression failed/.test(e.message));
    expect(warn?.message).toMatch(/summary model failed .*no summaries today.*nothing was dropped/);
    expect(critical[0]?.limit).toBe(51_000);
    expect(critical[0]?.promptTokens).toBeGreaterThan(51_000);
    // The store keeps every original (send-time shaping may still drop old turns to fit, H5).
    expect((await storeNow().getSession(s.id)).endReason).toBeNull();
    const stored = (await storeNow().activePath(s.id)).map((n) => JSON.stringify(n.message));
    expect(stored.some((t) => t.includes("answer 5:"))).toBe(true);
    expect(stored.some((t) => t.includes("still here"))).toBe(true);
    expect(fake.requests.at(-1)?.rawBody.toString("utf8")).toContain("answer 29:");
  });

  it("recomputes the figures for the route a fallback moved to (M2)", async () => {
    const h = await bootHost("compression:\n  threshold: 0.3\n");
    await h.startSession();
    expect(await h.context.report()).toContain("context for custom/fake-model");
    h.context.routeChanged({ ...h.runtime, provider: "openai", model: "gpt-4.1" });
    const moved = await h.context.report();
    expect(moved).toContain("context for openai/gpt-4.1");
    expect(moved).not.toContain("UNKNOWN MODEL");
    h.context.routeChanged(h.runtime); // back on the primary
    expect(await h.context.report()).toContain("context for custom/fake-model");
  });
});

describe("/compress", () => {
  it("summarises a history under the trigger on request and moves to the child session", async () => {
    const h = await bootHost("model:\n  context_window: 60000\ncompression:\n  protect_last_n: 2\n");
    const s = await h.startSession();
    const messages: Message[] = [];
    for (let i = 0; i < 30; i++) messages.push({ role: "user", content: `q ${i}` }, prose(i, 300));
    await storeNow().appendNodes(
      s.id,
      messages.map((message) => ({ kind: "message" as const, message })),
    );
    fake.setHandler(() => ({ text: "SUMMARY: thirty short answers." }));
    let written = "";
    await runSlash(
      "/compress",
      slashContext(h, (t) => (written += t)),
    );
    expect(written).toMatch(/^compressed \(phase 2\): \d+ → about \d+ tokens; now in session /);
    expect(h.session.parentSessionId).toBe(s.id);
    const path = await storeNow().activePath(h.session.id);
    expect(path[0]?.kind).toBe("compaction");
    expect(path[0]?.text).toContain("SUMMARY: thirty short answers.");
  });
});

describe("/model after compaction (H7)", () => {
  it("warns and waits for a second /model or --yes before switching", async () => {
    const h = await bootHost("model:\n  context_window: 60000\ncompression:\n  protect_last_n: 2\n");
    await h.startSession();
    await seed(h);
    fake.setHandler((req) =>
      req.rawBody.toString("utf8").includes(SUMMARY_MARK) ? { text: "SUMMARY: done." } : { text: "ok" },
    );
    await h.send("question 30");
    let written = "";
    const ctx = slashContext(h, (s) => (written += s));

    await runSlash("/model other-model", ctx);
    expect(written).toMatch(/! this conversation was compacted \(1×\)/);
    expect(written).toContain("repeat /model other-model (or add --yes) to switch anyway");
    expect(h.runtime.model).toBe("fake-model");

    written = "";
    await runSlash("/model other-model", ctx);
    expect(written).toContain("now using custom/other-model");
    expect(written).not.toContain("compacted");
    expect(h.runtime.model).toBe("other-model");

    written = "";
    await runSlash("/model fake-model --yes", ctx);
    expect(written).toContain("now using custom/fake-model");

    written = "";
    await runSlash("/context", ctx);
    expect(written).toContain("window believed    60,000 tokens (source: config");
  });

  it("warns about a history over 100K tokens even when it was never compacted", async () => {
    const h = await bootHost("compression:\n  enabled: false\n");
    const s = await h.startSession();
    const messages: Message[] = [];
    for (let i = 0; i < 55; i++) messages.push({ role: "user", content: `q ${i}` }, prose(i, 2_000));
    await storeNow().appendNodes(
      s.id,
      messages.map((message) => ({ kind: "message" as const, message })),
    );
    let written = "";
    await runSlash(
      "/model other-model",
      slashContext(h, (t) => (written += t)),
    );
    expect(written).toMatch(
      /! this conversation is about 11\dK tokens: the new model starts without a prompt cache/,
    );
    expect(written).not.toContain("compacted");
    expect(h.runtime.model).toBe("fake-model");
  });

  it("switches at once on a short, never compacted history", async () => {
    const h = await bootHost("");
    await h.startSession();
    let written = "";
    await runSlash(
      "/model other-model",
      slashContext(h, (s) => (written += s)),
    );
    expect(written).toContain("now using custom/other-model");
  });
});
