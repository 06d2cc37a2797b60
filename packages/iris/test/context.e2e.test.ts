// The context engine in the running agent (SPEC C1–C4, M3): a 200-round turn with large tool
// outputs against the fake server, whose handler answers 400 context_length_exceeded the moment a
// request would not fit the 60K window. Compression must keep every request under it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { lookupModel } from "@iris/llm";
import type { FakeLlm, RecordedRequest } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";

const WINDOW = 60_000;
const ROUNDS = 200;
const SUMMARY_MARK = "You compress the middle of a conversation";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
});
afterEach(() => close());

const env = () => ({ IRIS_HOME: home.home });
const args = () => routeArgs(fake.baseUrl, "chat_completions");

function writeConfig(extra = ""): void {
  writeFileSync(
    join(home.home, "config.yaml"),
    `model:\n  context_window: ${WINDOW}\ncompression:\n  protect_last_n: 6\n${extra}`,
  );
}

/** The fake's prompt count (it bills a request at 4 bytes a token). */
const promptTokens = (req: RecordedRequest) => Math.ceil(req.rawBody.length / 4);

interface Script {
  rounds: number;
  summaries: number;
  maxPrompt: number;
  overflows: number;
}

/**
 * Rounds 1..199 call `seq` for ~9 KB of distinct output and say ~1 KB of text (which pruning
 * cannot shrink, so phase 2 is needed eventually); round 200 answers. Summary requests get a
 * summary. A request over the window gets the 400 a real server sends.
 */
function scriptLongSession(): Script {
  const s: Script = { rounds: 0, summaries: 0, maxPrompt: 0, overflows: 0 };
  fake.setHandler((req) => {
    const raw = req.rawBody.toString("utf8");
    if (raw.includes(SUMMARY_MARK)) {
      s.summaries++;
      return { text: `Summary ${s.summaries}: the agent listed number ranges with seq; all went fine.` };
    }
    const tokens = promptTokens(req);
    s.maxPrompt = Math.max(s.maxPrompt, tokens);
    if (tokens > WINDOW) {
      s.overflows++;
      return {
        fault: "status",
        status: 400,
        body: {
          error: {
            message: `This model's maximum context length is ${WINDOW} tokens. However, you requested ${tokens} tokens.`,
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        },
      };
    }
    s.rounds++;
    if (s.rounds >= ROUNDS) return { text: `All ${ROUNDS} rounds done.` };
    const start = s.rounds * 100_000;
    return {
      text: `Round ${s.rounds}: checking the next range. ${"notes ".repeat(170)}`,
      toolCalls: [{ name: "terminal", arguments: { command: `seq ${start} ${start + 1100}` } }],
      chunkSize: 4096,
    };
  });
  return s;
}

describe("context compression in a long session", () => {
  it("runs 200 rounds with large tool outputs without a 400, splitting the session as it compresses", async () => {
    writeConfig();
    const work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    const script = scriptLongSession();
    const started = Date.now();
    const r = await runIris(["-p", "List number ranges until I say stop", "--max-rounds", "0", ...args()], {
      env: env(),
      cwd: work,
    });
    const seconds = (Date.now() - started) / 1000;
    expect(r.stderr).not.toMatch(/context_exhausted|Error:|at .*\.js:\d+/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`All ${ROUNDS} rounds done.\n`);
    expect(script.overflows).toBe(0);
    expect(fake.violations).toEqual([]);
    expect(script.rounds).toBe(ROUNDS);
    expect(script.maxPrompt).toBeLessThanOrEqual(WINDOW);
    expect(script.maxPrompt).toBeLessThan(51_000); // never near the 85 % safety net
    expect(script.summaries).toBeGreaterThan(0); // phase 2 ran at least once
    expect(r.stderr).toMatch(/context compressed, phase 2/);
    // Phase 2 asked for at most the summary cap (5 % of 60K), and a later one updated the first.
    const summaryBodies = fake.requests
      .filter((q) => q.rawBody.toString("utf8").includes(SUMMARY_MARK))
      .map((q) => q.body as { max_tokens?: number; max_completion_tokens?: number; messages: unknown[] });
    for (const b of summaryBodies) expect(b.max_tokens ?? b.max_completion_tokens).toBe(3_000);
    if (summaryBodies.length > 1)
      expect(JSON.stringify(summaryBodies.at(-1)?.messages)).toContain("<previous-summary>");

    // The chain of sessions: each compression ended a session and started its child.
    const store = openStore(join(home.home, "state.db"));
    let chain: { id: string; parent: string | null; ended: string | null }[];
    try {
      chain = (await store.listSessions({ limit: 1000 })).map((s) => ({
        id: s.id,
        parent: s.parentSessionId,
        ended: s.endReason,
      }));
    } finally {
      await store.close();
    }
    const compressed = chain.filter((s) => s.ended === "compressed");
    process.stderr.write(
      `200-round session: ${seconds.toFixed(1)} s, ${compressed.length} compressions, ` +
        `${script.summaries} summaries, largest prompt ${script.maxPrompt} tokens\n`,
    );
    expect(compressed.length).toBeGreaterThanOrEqual(2);
    const live = chain.filter((s) => s.ended === null);
    expect(live).toHaveLength(1);
    const child = live[0]!;
    expect(child.parent).not.toBeNull();

    const shown = await runIris(["sessions", "show", child.id], { env: env() });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`parent ${child.parent}`);
    expect(shown.stdout).toContain("[Summary of the earlier conversation]");

    const ctx = await runIris(["context", "--session", child.id, ...args()], { env: env() });
    expect(ctx.stderr).toBe("");
    expect(ctx.code).toBe(0);
    const lines = ctx.stdout;
    expect(lines).toContain("context for custom/fake-model\n");
    expect(lines).toContain("window believed    60,000 tokens (source: config");
    expect(lines).toContain(
      "trigger            45,000 tokens (threshold 0.75: raised from 0.5 to the 0.75 floor",
    );
    expect(lines).toContain("tail budget        9,000 tokens (at least 6 messages)");
    expect(lines).toContain("summary cap        3,000 tokens");
    expect(lines).toContain("gateway threshold  51,000 tokens (0.85 of the window, fixed)");
    expect(lines).toMatch(/last prompt +\d{1,3}(,\d{3})* tokens \(measured by the API\)/);
    expect(lines).toContain(`compressions       ${compressed.length} so far`);
  }, 180_000);
});

describe("compression that fails", () => {
  it("keeps the history whole, says why, and ends with context_exhausted when it cannot fit", async () => {
    writeConfig();
    let summaries = 0;
    let sent = 0;
    fake.setHandler((req) => {
      if (req.rawBody.toString("utf8").includes(SUMMARY_MARK)) {
        summaries++;
        return { fault: "status", status: 400, body: { error: { message: "summary backend is broken" } } };
      }
      if (promptTokens(req) > WINDOW) {
        return {
          fault: "status",
          status: 400,
          body: { error: { message: "maximum context length exceeded", code: "context_length_exceeded" } },
        };
      }
      sent++;
      // The weight is in the prose: pruning tool outputs cannot help, only a summary could.
      return {
        text: `Step ${sent}. ${"reasoning ".repeat(800)}`,
        toolCalls: [{ name: "terminal", arguments: { command: `echo step-${sent}` } }],
        chunkSize: 4096,
      };
    });
    const r = await runIris(["-p", "Think out loud forever", "--max-rounds", "0", ...args()], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Context compression failed: the summary model failed \(.*summary backend is broken/,
    );
    expect(r.stderr).toContain("nothing was dropped");
    expect(r.stderr).toMatch(/context_exhausted/);
    expect(summaries).toBeGreaterThan(0);
    expect(fake.violations).toEqual([]);
    // Fail closed: no session was ended by a compression, the one session holds every message.
    const store = openStore(join(home.home, "state.db"));
    try {
      const sessions = await store.listSessions({ limit: 100 });
      expect(sessions).toHaveLength(1);
      expect(sessions[0]?.endReason).not.toBe("compressed");
      const texts = (await store.activePath(sessions[0]!.id)).map((n) => JSON.stringify(n.message));
      expect(texts.filter((t) => t.includes("Step 1.")).length).toBe(1);
      expect(texts.filter((t) => t.includes(`Step ${sent}.`)).length).toBe(1);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe("iris context", () => {
  it("says loudly when the model is unknown and shows the default window's figures", async () => {
    const r = await runIris(["context", ...args()], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "! UNKNOWN MODEL: (custom, fake-model) is in no catalogue; assuming a 128,000-token",
    );
    expect(r.stdout).toContain("window believed    128,000 tokens (source: default)");
    expect(r.stdout).toContain(
      "trigger            96,000 tokens (threshold 0.75: raised from 0.5 to the 0.75 floor",
    );
    expect(r.stdout).toContain("tail budget        19,200 tokens (at least 20 messages)");
    expect(r.stdout).toContain("summary cap        6,400 tokens");
    expect(r.stdout).toContain("gateway threshold  108,800 tokens");
    expect(r.stdout).toContain("session            none (give --session ID)");
  });

  it("needs no credentials for a known model and applies no floor over 512K", async () => {
    const known = lookupModel("openai", "gpt-4.1");
    const w = known.info.contextWindow;
    expect(w).toBeGreaterThanOrEqual(512_000); // the case this test is about
    const r = await runIris(["context", "--provider", "openai", "--model", "gpt-4.1"], { env: env() });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const fmt = (x: number) => x.toLocaleString("en-US");
    expect(r.stdout).toContain(`window believed    ${fmt(w)} tokens (source: ${known.source}`);
    expect(r.stdout).toContain(
      `trigger            ${fmt(Math.floor(w * 0.5))} tokens (threshold 0.5: compression.threshold)`,
    );
    expect(r.stdout).not.toContain("UNKNOWN MODEL");
  });

  it("reports a disabled engine, a configured threshold and 'none yet' for a fresh session", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      "model:\n  context_window: 1000000\ncompression:\n  enabled: false\n  threshold: 0.4\n",
    );
    const store = openStore(join(home.home, "state.db"));
    const id = (await store.createSession({ source: "cli", provider: "custom", model: "fake-model" })).id;
    await store.close();
    const r = await runIris(["context", "--session", id, ...args()], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("compression        disabled (compression.enabled: false)");
    expect(r.stdout).toContain("trigger            400,000 tokens (threshold 0.4: compression.threshold)");
    expect(r.stdout).toContain("summary cap        12,000 tokens");
    expect(r.stdout).toContain("last prompt        none yet (history now about 0 tokens, estimated)");
    expect(r.stdout).toContain("compressions       0 so far");
    const missing = await runIris(["context", "--session", "nope-nope", ...args()], { env: env() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no session 'nope-nope'");
  });
});
