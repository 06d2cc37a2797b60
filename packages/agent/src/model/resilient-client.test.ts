// F1 fault rows, one per row, against the fake LLM server over real HTTP: each ends in success
// through retry/fallback or in the defined error. Backoff waits go through an injected sleep that
// records the delay (so Retry-After and the backoff are asserted exactly, without waiting).
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  assistantText,
  type LlmRequest,
  type RoutingConfig,
  type Runtime,
  type StreamEvent,
  toolCallsOf,
} from "@iris/llm";
import { type FakeLlm, type Step, startFakeLlm, tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { AgentEvents } from "../events.js";
import { type RouteResolver, type RouteSpec, resolverFromConfig } from "./fallback-chain.js";
import { type ResilientClientOptions, ResilientModelClient } from "./resilient-client.js";

const request: Omit<LlmRequest, "model"> = {
  system: "sys",
  messages: [{ role: "user", content: "hi" }],
  cache: true,
};

interface Rig {
  fakes: FakeLlm[];
  events: AgentEvents;
  env: Record<string, string | undefined>;
  client: ResilientModelClient;
  status: string[];
  retried: { attempt: number; delayMs: number; kind: string }[];
  activated: { from: string; to: string }[];
  resets: number;
  slept: number[];
  routeChanges: Runtime[];
  call(signal?: AbortSignal): ReturnType<ResilientModelClient["call"]>;
  streamed: StreamEvent[];
}

let open: FakeLlm[] = [];
afterEach(async () => {
  const fired = open.flatMap((f) => f.violations.map((v) => v.rejected));
  await Promise.all(open.map((f) => f.close()));
  open = [];
  expect(fired).toEqual([]); // no 400 shape rule fired on any request, retries included
});

/** n fake servers as config-defined routes r0..r(n-1) (model m0..), keys in KEY_0.. of `env`. */
async function rig(
  n: number,
  extra: Partial<ResilientClientOptions> = {},
  modes: Record<number, string> = {},
  wrapResolve: (base: RouteResolver) => RouteResolver = (base) => base,
): Promise<Rig> {
  const fakes = await Promise.all(Array.from({ length: n }, () => startFakeLlm()));
  open.push(...fakes);
  const env: Record<string, string | undefined> = {};
  const config: RoutingConfig = { providers: {} };
  fakes.forEach((f, i) => {
    env[`KEY_${i}`] = `key-${i}`;
    config.providers![`r${i}`] = {
      base_url: f.baseUrl,
      api_key_env: `KEY_${i}`,
      ...(modes[i] ? { api_mode: modes[i] } : {}),
    };
  });
  const base = resolverFromConfig(config, () => ({ ...env }));
  const resolve = wrapResolve(base);
  const first = await resolve({ provider: "r0", model: "m0" });
  if (!first.ok) throw new Error("primary did not resolve");
  const fallbacks: RouteSpec[] = fakes
    .slice(1)
    .map((_, i) => ({ provider: `r${i + 1}`, model: `m${i + 1}` }));
  const events = new AgentEvents();
  const r: Rig = {
    fakes,
    events,
    env,
    status: [],
    retried: [],
    activated: [],
    resets: 0,
    slept: [],
    routeChanges: [],
    streamed: [],
    client: undefined as unknown as ResilientModelClient,
    call: (signal) =>
      r.client.call(request, {
        signal: signal ?? new AbortController().signal,
        onEvent: (e) => r.streamed.push(e),
        stepId: 1,
      }),
  };
  events.on("status", (s) => r.status.push(s.message));
  events.on("llm_call_retried", (e) =>
    r.retried.push({ attempt: e.attempt, delayMs: e.delayMs, kind: e.error.kind }),
  );
  events.on("fallback_activated", (e) => r.activated.push({ from: e.from, to: e.to }));
  events.on("stream_reset", () => {
    r.resets += 1;
  });
  r.client = new ResilientModelClient({
    primary: first.runtime,
    fallbacks,
    resolve,
    events,
    onRouteChange: (rt) => r.routeChanges.push(rt),
    clientOptions: { stream: { idleTimeoutMs: 250, connectTimeoutMs: 5000 } },
    retry: { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 8000, retryAfterCapMs: 60_000 },
    random: () => 0,
    sleep: async (ms) => {
      r.slept.push(ms);
      return true;
    },
    ...extra,
  });
  return r;
}

const ok = (text: string): Step => ({ text });
const status = (code: number, retryAfter?: string): Step => ({
  fault: "status",
  status: code,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
});

function textOf(res: Awaited<ReturnType<ResilientModelClient["call"]>>): string {
  if (!res.ok) throw new Error(`call failed: ${res.error.kind} ${res.error.message}`);
  return assistantText(res.message);
}

describe("retries on the same route (F1)", () => {
  it("gives every retried attempt a fresh, rising step id (L6)", async () => {
    const r = await rig(1);
    r.fakes[0]!.enqueue(status(503), status(503), ok("third time"));
    const ids: number[] = [];
    r.events.on("llm_call_retried", (e) => ids.push(e.stepId));
    let next = 8;
    const res = await r.client.call(request, {
      signal: new AbortController().signal,
      onEvent: () => {},
      stepId: 7,
      nextStepId: () => next++,
    });
    expect(textOf(res)).toBe("third time");
    expect(ids).toEqual([7, 8]); // the failed attempts; the successful one used 9
    expect(next).toBe(10);
  });

  it("429 without Retry-After: jittered exponential backoff, then success", async () => {
    const r = await rig(1, { random: () => 0.5 });
    r.fakes[0]!.enqueue(status(429), status(429), ok("after two 429s"));
    expect(textOf(await r.call())).toBe("after two 429s");
    // base 1000 · 2^(n−1) plus half the random share of it as jitter.
    expect(r.slept).toEqual([1250, 2500]);
    expect(r.retried.map((x) => [x.attempt, x.kind])).toEqual([
      [1, "rate_limit"],
      [2, "rate_limit"],
    ]);
    expect(r.status[0]).toBe("rate limited by r0/m0 (429), retrying in 1 s (1/2)");
    expect(r.fakes[0]!.requests).toHaveLength(3);
  });

  it("429 with Retry-After: the server's wait is honoured, capped", async () => {
    const r = await rig(1, {
      retry: { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 8000, retryAfterCapMs: 30_000 },
    });
    r.fakes[0]!.enqueue(status(429, "7"), status(429, "3600"), ok("waited"));
    expect(textOf(await r.call())).toBe("waited");
    expect(r.slept).toEqual([7000, 30_000]);
    expect(r.status[0]).toContain("retrying in 7 s (1/2)");
  });

  it.each([500, 502, 503, 504])("%i is retried, then the route answers", async (code) => {
    const r = await rig(2);
    r.fakes[0]!.enqueue(status(code), ok(`ok after ${code}`));
    expect(textOf(await r.call())).toBe(`ok after ${code}`);
    expect(r.retried.map((x) => x.kind)).toEqual(["server"]);
    expect(r.fakes[1]!.requests).toHaveLength(0);
    expect(r.client.route().provider).toBe("r0");
  });

  it("a stall past the idle timeout is a timeout, retried", async () => {
    const r = await rig(1);
    r.fakes[0]!.enqueue({ fault: "stall" }, ok("no stall now"));
    expect(textOf(await r.call())).toBe("no stall now");
    expect(r.retried.map((x) => x.kind)).toEqual(["timeout"]);
  });

  it("a stream dropped mid-tool-call: the partial output is reset and the call retried", async () => {
    const r = await rig(1);
    const reply = {
      text: "let me look",
      toolCalls: [{ name: "read", arguments: { path: "a/long/path/name.txt" } }],
      chunkSize: 2,
    };
    r.fakes[0]!.enqueue({ fault: "drop", reply, afterEvents: 6 }, reply);
    const res = await r.call();
    if (!res.ok) throw new Error(res.error.message);
    expect(toolCallsOf(res.message).map((c) => JSON.parse(c.argumentsJson))).toEqual([
      { path: "a/long/path/name.txt" },
    ]);
    expect(r.retried.map((x) => x.kind)).toEqual(["network"]);
    // The dropped attempt had streamed some text; the front end was told to discard it.
    expect(r.streamed.some((e) => e.type === "text_delta")).toBe(true);
    expect(r.resets).toBe(1);
  });

  it("an empty reply is an invalid response: retried, then the route answers", async () => {
    const r = await rig(1);
    r.fakes[0]!.enqueue({ text: "" }, { fault: "malformed" }, ok("finally"));
    expect(textOf(await r.call())).toBe("finally");
    expect(r.retried.map((x) => x.kind)).toEqual(["invalid_response", "invalid_response"]);
  });

  it("an empty reply cut at the output token limit is not retried; a fallback may answer", async () => {
    const alone = await rig(1);
    alone.fakes[0]!.enqueue({ text: "", stopReason: "max_tokens" }, ok("never asked for"));
    const res = await alone.call();
    expect(res.ok ? undefined : res.error).toMatchObject({ kind: "invalid_response", code: "max_tokens" });
    expect(alone.retried).toEqual([]);
    expect(alone.fakes[0]!.requests).toHaveLength(1);

    const chain = await rig(2);
    chain.fakes[0]!.enqueue({ text: "", stopReason: "max_tokens" });
    chain.fakes[1]!.enqueue(ok("from the fallback"));
    expect(textOf(await chain.call())).toBe("from the fallback");
    expect(chain.retried).toEqual([]);
    // The cut came from the request, not the route: the primary is not put on cooldown, so the
    // next call goes to it again.
    chain.fakes[0]!.enqueue(ok("the primary again"));
    expect(textOf(await chain.call())).toBe("the primary again");
  });

  it("with real (tiny) sleeps the same retries happen", async () => {
    const r = await rig(1, {
      sleep: undefined,
      retry: { maxRetries: 3, baseDelayMs: 2, maxDelayMs: 4, retryAfterCapMs: 5 },
    });
    r.fakes[0]!.enqueue(status(503), status(429, "0"), status(502), ok("real sleeps"));
    expect(textOf(await r.call())).toBe("real sleeps");
    expect(r.retried.map((x) => x.attempt)).toEqual([1, 2, 3]);
  });

  it("an abort during the backoff returns the aborted error at once", async () => {
    const r = await rig(2, {
      sleep: undefined,
      retry: {
        maxRetries: 3,
        baseDelayMs: 600_000,
        maxDelayMs: 600_000,
        retryAfterCapMs: 600_000,
        callDeadlineMs: 3_600_000,
      },
    });
    const ctl = new AbortController();
    r.fakes[0]!.enqueue(status(503));
    // Abort while the (10-minute) backoff is running: announced by the retry hook.
    r.events.on("llm_call_retried", () => ctl.abort());
    const res = await r.call(ctl.signal);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.kind).toBe("aborted");
    expect(r.fakes[1]!.requests).toHaveLength(0);
  });
});

describe("errors that end the call or fall back at once", () => {
  it("404 falls back immediately, without a retry", async () => {
    const r = await rig(2);
    r.fakes[0]!.enqueue(status(404));
    r.fakes[1]!.enqueue(ok("from the fallback"));
    expect(textOf(await r.call())).toBe("from the fallback");
    expect(r.retried).toEqual([]);
    expect(r.fakes[0]!.requests).toHaveLength(1);
    expect(r.activated).toEqual([{ from: "r0/m0", to: "r1/m1" }]);
    expect(r.client.route()).toMatchObject({ provider: "r1", model: "m1", baseUrl: r.fakes[1]!.baseUrl });
    expect(r.routeChanges.map((x) => x.provider)).toEqual(["r1"]);
    expect(r.status.some((s) => s.includes("switching to r1/m1 (fallback 1/1)"))).toBe(true);
  });

  it("a spawned client's fallback does not re-point the parent's route listener when it says so", async () => {
    // A subagent's client (spawn({ onRouteChange: undefined })): its fallback must not move the
    // parent's context thresholds (issue 13).
    const r = await rig(2);
    const child = r.client.spawn({ onRouteChange: undefined });
    r.fakes[0]!.enqueue(status(404));
    r.fakes[1]!.enqueue(ok("child on the fallback"));
    const res = await child.call(request, {
      signal: new AbortController().signal,
      onEvent: () => {},
      stepId: 1,
    });
    expect(textOf(res)).toBe("child on the fallback");
    expect(child.route()).toMatchObject({ provider: "r1" });
    expect(r.routeChanges).toEqual([]);
  });

  it("400 invalid request: no retry, the chain goes on and says why; the last route's error comes back", async () => {
    const r = await rig(2);
    const bad = {
      fault: "status" as const,
      status: 400,
      body: { error: { message: "bad field foo", type: "invalid_request_error" } },
    };
    r.fakes[0]!.enqueue(bad);
    r.fakes[1]!.enqueue({ text: "fine" });
    const ok = await r.call();
    expect(ok.ok && assistantText(ok.message)).toBe("fine");
    expect(r.fakes[0]!.requests).toHaveLength(1);
    expect(r.status.join("\n")).toMatch(/bad field foo.*switching to r1\/m1/);
    r.fakes[0]!.enqueue(bad);
    r.fakes[1]!.enqueue(bad);
    const res = await r.call();
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.kind).toBe("invalid_request");
  });

  it("402 billing falls back at once; with no fallback left it ends as billing", async () => {
    const r = await rig(2);
    r.fakes[0]!.enqueue(status(402));
    r.fakes[1]!.enqueue(status(402));
    const res = await r.call();
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.kind).toBe("billing");
    expect(r.fakes.map((f) => f.requests.length)).toEqual([1, 1]);
    expect(r.status.at(-1)).toContain("no fallback route left to try");
  });

  it("429 that never clears is a failover signal after the retries (U4)", async () => {
    const r = await rig(2);
    r.fakes[0]!.enqueue(status(429), status(429), status(429));
    r.fakes[1]!.enqueue(ok("second route"));
    expect(textOf(await r.call())).toBe("second route");
    expect(r.fakes[0]!.requests).toHaveLength(3);
  });
});

describe("credentials (401/403)", () => {
  it("401 then a refresh that finds a rotated key: the same route answers with the new key", async () => {
    const r = await rig(2);
    r.fakes[0]!.enqueue(status(401), ok("with the new key"));
    r.env.KEY_0 = "key-0-rotated"; // e.g. .env rewritten since startup; the default refresh re-resolves
    expect(textOf(await r.call())).toBe("with the new key");
    expect(r.fakes[0]!.requests.map((q) => q.headers.authorization)).toEqual([
      "Bearer key-0",
      "Bearer key-0-rotated",
    ]);
    expect(r.fakes[1]!.requests).toHaveLength(0);
    expect(r.status.some((s) => s.includes("credentials refreshed, retrying"))).toBe(true);
  });

  it("401 with an unreadable credential file: the fallback still activates with its own key", async () => {
    const dir = tempDir("iris-cred");
    try {
      const credFile = join(dir.path, "credentials.json");
      mkdirSync(credFile); // reading it fails (EISDIR), as an unreadable file would, even for root
      const r = await rig(2, {
        refreshCredentials: async (rt) => ({ ...rt, apiKey: JSON.parse(readFileSync(credFile, "utf8")).key }),
      });
      r.fakes[0]!.enqueue(status(401));
      r.fakes[1]!.enqueue(ok("fallback with its own key"));
      expect(textOf(await r.call())).toBe("fallback with its own key");
      expect(r.fakes[0]!.requests.map((q) => q.headers.authorization)).toEqual(["Bearer key-0"]);
      expect(r.fakes[1]!.requests.map((q) => q.headers.authorization)).toEqual(["Bearer key-1"]);
      expect(r.status.some((s) => s.startsWith("credential refresh for r0/m0 failed"))).toBe(true);
    } finally {
      dir.cleanup();
    }
  });

  it("a fallback whose credentials cannot be read is skipped and the next entry is used", async () => {
    const dir = tempDir("iris-cred");
    try {
      // r1 keeps its key in its own credential file, which cannot be read (the seeds' outage).
      const credFile = join(dir.path, "r1.json");
      mkdirSync(credFile);
      const r = await rig(3, {}, {}, (base) => async (spec) => {
        if (spec.provider !== "r1") return base(spec);
        const key = JSON.parse(readFileSync(credFile, "utf8")).key as string;
        const res = await base(spec);
        return res.ok ? { ok: true, runtime: { ...res.runtime, apiKey: key } } : res;
      });
      r.fakes[0]!.enqueue(status(403));
      r.fakes[2]!.enqueue(ok("third"));
      expect(textOf(await r.call())).toBe("third");
      expect(r.fakes[1]!.requests).toHaveLength(0);
      expect(r.fakes[2]!.requests[0]?.headers.authorization).toBe("Bearer key-2");
      expect(r.status.some((s) => s.startsWith("fallback r1/m1 skipped: cannot resolve it: EISDIR"))).toBe(
        true,
      );
    } finally {
      dir.cleanup();
    }
  });
});

describe("the overall deadline of a call (issue 12)", () => {
  it("a stalled route is cut at the time the turn has left, and says so", async () => {
    const r = await rig(1);
    r.fakes[0]!.enqueue({ fault: "stall" });
    const res = await r.client.call(request, {
      signal: new AbortController().signal,
      onEvent: () => {},
      stepId: 1,
      timeLeftMs: 200,
    });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.kind).toBe("timeout");
      expect(res.error.message).toContain("the call's deadline");
    }
  });

  it("a cooldown kept in a RouteHealth port is honoured by a new client (another process)", async () => {
    const kept = new Map<string, number>();
    const health = {
      get: async (k: string) => (kept.has(k) ? { untilMs: kept.get(k)! } : undefined),
      set: async (k: string, until: number) => void kept.set(k, until),
      clear: async (k: string) => void kept.delete(k),
    };
    const first = await rig(2, { routeHealth: health });
    first.fakes[0]!.enqueue({ fault: "status", status: 404 });
    first.fakes[1]!.enqueue({ text: "from the fallback" });
    expect((await first.call()).ok).toBe(true);
    expect([...kept.keys()]).toEqual([`r0/m0@${first.fakes[0]!.baseUrl}`]);
    // A fresh client over the same port, as the next `iris -c` would build.
    const second = await rig(2, { routeHealth: health });
    kept.set(`r0/m0@${second.fakes[0]!.baseUrl}`, Date.now() + 60_000);
    second.fakes[1]!.enqueue({ text: "fallback again" });
    expect((await second.call()).ok).toBe(true);
    expect(second.fakes[0]!.requests).toHaveLength(0);
  });
});
