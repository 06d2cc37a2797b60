// One process, many sessions: 200 concurrent sessions against the fake server, ten tool
// rounds each with parallel tool calls, a compression in some, a fallback in others, one closed in
// the middle of its turn. Each session's history, task directory and events stay its own.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type AssistantMessage, type Message, ZERO_USAGE } from "@iris/llm";
import type { SqliteStore } from "@iris/store";
import type { FakeLlm, RecordedRequest, Step, TempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostEvent } from "../src/app/events.js";
import type { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { storeOf } from "../src/testing.js";
import { openProcess, textOf } from "./process.js";

const SESSIONS = 200;
const ROUNDS = 10;
const SUMMARY_MARK = "You compress the middle of a conversation";
const compressed = (n: number) => n % 25 === 3; // 8 sessions
const flaky = (n: number) => n % 25 === 7; // 8 sessions: their primary answers 402, they fall back
const CLOSED_MID_TURN = 11;

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
let close: () => Promise<void>;
const leaks: string[] = [];
let baseline: Map<string, number>;

/** Live handles by kind, without the sockets of the HTTP keep-alive pool (one per route, reused). */
function handleCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo())
    if (kind !== "TCPSocketWrap") counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

beforeAll(async () => {
  ({ fake, dir, iris, close } = await openProcess("iris-soak", (server) =>
    [
      "model:",
      "  context_window: 60000",
      "compression:",
      "  protect_last_n: 2",
      // Under a loaded machine a reply may take long; only the scripted 402s may cause a fallback.
      "providers:",
      "  custom: {timeouts: {first_byte_seconds: 3600, idle_seconds: 3600}}",
      "fallback_providers:",
      `  - {provider: custom, model: fake-fallback, base_url: "${server.baseUrl}"}`,
      "",
    ].join("\n"),
  ));
  baseline = handleCounts();
});
afterAll(() => close());

type ChatMessage = { role: string; content?: unknown; tool_calls?: unknown[] };

/** The fake model: which session asks is read from the marker in its newest user message. */
async function reply(req: RecordedRequest): Promise<Step> {
  const body = req.body as { model: string; messages: ChatMessage[] };
  const raw = req.rawBody.toString("utf8");
  const marker = /\[S(\d+)\]/.exec(raw)?.[1];
  if (raw.includes(SUMMARY_MARK)) return { text: `SUMMARY of [S${marker}]: thirty questions answered.` };
  if (body.model === "flaky-model")
    return { fault: "status", status: 402, body: { error: { message: "quota" } } };
  const lastUser = body.messages.map((m) => m.role).lastIndexOf("user");
  const n = Number(/\[S(\d+)\]/.exec(textOf(body.messages[lastUser] ?? { role: "user" }))?.[1]);
  const after = body.messages.slice(lastUser + 1);
  // Every tool result of this turn must be this session's (its own task directory).
  for (const m of after)
    if (m.role === "tool" && /^S\d+$/m.test(textOf(m)) && !textOf(m).includes(`S${n}`))
      leaks.push(`session ${n} read another session's file: ${textOf(m).slice(0, 80)}`);
  const round = after.filter((m) => m.role === "assistant").length;
  if (round === 3 && n === CLOSED_MID_TURN) void (await sessions[n]?.close("closed by the test"));
  if (round === 0)
    return {
      toolCalls: [
        {
          name: "terminal",
          arguments: { command: `mkdir -p s${n} && cd s${n} && printf 'S${n}\\n' > mine.txt && pwd` },
        },
      ],
    };
  if (round < ROUNDS)
    return {
      toolCalls: [
        { name: "read_file", arguments: { path: "mine.txt" } },
        { name: "read_file", arguments: { path: "mine.txt", offset: 1, limit: 1 } },
      ],
    };
  return { text: `done [S${n}]` };
}

const origin = { provider: "custom", apiMode: "chat_completions" as const, model: "fake-model" };
async function seed(s: Session, n: number): Promise<void> {
  const messages: Message[] = [];
  for (let i = 0; i < 30; i++) {
    const answer: AssistantMessage = {
      role: "assistant",
      parts: [{ type: "text", text: `answer ${i} [S${n}]: ${"word ".repeat(2_000)}` }],
      origin,
      usage: { ...ZERO_USAGE },
      stopReason: "end",
    };
    messages.push({ role: "user", content: `question ${i} [S${n}]` }, answer);
  }
  await storeOf(iris).appendNodes(
    s.id,
    messages.map((message) => ({ kind: "message" as const, message })),
  );
}

const sessions: Session[] = [];

describe("one process, 200 concurrent sessions", () => {
  it("keeps every session's history, directory, events and close to itself", async () => {
    fake.setHandler(reply);
    const work = join(dir.path, "work");
    mkdirSync(work);
    const processWide: HostEvent[] = [];
    const offAll = iris.subscribe((e) => {
      if (e.name === "session_split" || e.name === "fallback_activated" || e.name === "turn_completed")
        processWide.push(e);
    });
    const own = new Map<number, HostEvent[]>();
    for (let n = 0; n < SESSIONS; n++) {
      const s = iris.openSession({
        source: "soak",
        cwd: work,
        route: {
          provider: "custom",
          model: flaky(n) ? "flaky-model" : "fake-model",
          baseUrl: fake.baseUrl,
          apiMode: "chat_completions",
        },
      });
      await s.startSession();
      if (compressed(n)) await seed(s, n);
      const seen: HostEvent[] = [];
      s.subscribe((e) => seen.push(e));
      own.set(n, seen);
      sessions.push(s);
    }
    expect(iris.openSessions).toBe(SESSIONS);
    const firstIds = sessions.map((s) => s.id);

    const results = await Promise.all(sessions.map((s, n) => s.send(`task [S${n}]: read your file`)));
    offAll();

    expect(leaks).toEqual([]);
    expect(fake.violations).toEqual([]);
    for (const [n, r] of results.entries()) {
      if (n === CLOSED_MID_TURN) {
        expect(r.reason).toBe("user_cancelled");
        continue;
      }
      expect(r.reason, `session ${n}: ${r.text}`).toBe("natural");
      expect(r.text).toBe(`done [S${n}]`);
      expect(r.rounds).toBe(ROUNDS + 1);
    }

    // Every session's stored history holds only its own messages (compressed ones in the child).
    for (const [n, s] of sessions.entries()) {
      if (n === CLOSED_MID_TURN) continue;
      const texts = (await storeOf(iris).activePath(s.id)).map((node) => JSON.stringify(node.message));
      const markers = new Set(texts.flatMap((t) => [...t.matchAll(/\[S(\d+)\]/g)].map((m) => m[1])));
      expect([...markers], `session ${n}`).toEqual([String(n)]);
    }

    // A compression split is an explicit event {from, to}, on the session and process-wide.
    for (const [n, s] of sessions.entries()) {
      const splits = (own.get(n) ?? []).filter((e) => e.name === "session_split");
      if (!compressed(n)) {
        expect(splits, `session ${n}`).toEqual([]);
        continue;
      }
      expect(splits.map((e) => e.payload)).toEqual([{ from: firstIds[n], to: s.id }]);
      expect(processWide.some((e) => e.name === "session_split" && e.payload.to === s.id)).toBe(true);
    }
    // The flaky sessions fell back; the others never did (cooldowns are per fallback chain).
    const fellBack = new Set(
      processWide.filter((e) => e.name === "fallback_activated").map((e) => e.sessionId),
    );
    const why = (id: string) =>
      processWide.flatMap((e) =>
        e.name === "fallback_activated" && e.sessionId === id ? [e.payload.reason] : [],
      );
    for (const [n, s] of sessions.entries())
      if (n !== CLOSED_MID_TURN)
        expect(fellBack.has(s.id), `session ${n}: ${why(s.id).join("; ")}`).toBe(flaky(n));
    // Every tagged event names its own session and the one task of its turn.
    for (const [n, s] of sessions.entries()) {
      if (n === CLOSED_MID_TURN) continue;
      const events = own.get(n) ?? [];
      const ids = new Set(events.filter((e) => e.name !== "session_split").map((e) => e.sessionId));
      expect(
        [...ids].every((id) => id === s.id || id === firstIds[n]),
        `session ${n}`,
      ).toBe(true);
      const tasks = new Set(events.filter((e) => e.name === "tool_progress").map((e) => e.taskId));
      expect(tasks.size).toBe(1);
    }

    // Closing one session mid-turn left the others running (all natural above) and released it.
    expect(sessions[CLOSED_MID_TURN]?.isClosed).toBe(true);
    expect(iris.openSessions).toBe(SESSIONS - 1);
    await Promise.all(sessions.map((s) => s.close()));
    expect(iris.openSessions).toBe(0);

    // Handles return to their starting level once every session has closed: no child process,
    // pipe, timer or worker is left behind (RSS per session and its slope: bench/sessions.ts).
    // The store's background indexer finishes its backlog and then schedules nothing.
    const deadline = Date.now() + 300_000;
    while ((await storeOf(iris).searchIndexBacklog()) > 0 && Date.now() < deadline) await sleep(50);
    await sleep(50);
    // The one exception is process scope: the store's checkpointer thread, once the WAL grew
    // (it sleeps while the WAL is quiet, and the process's close() ends it).
    const processScope = (storeOf(iris) as SqliteStore).checkpointing === "running" ? 1 : 0;
    for (const [kind, count] of handleCounts())
      expect(count, kind).toBeLessThanOrEqual(
        (baseline.get(kind) ?? 0) + (kind === "MessagePort" ? processScope : 0),
      );
  }, 900_000);
});
