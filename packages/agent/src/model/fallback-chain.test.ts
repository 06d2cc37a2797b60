// The fallback chain (F2, U4) over three fake servers: walked in order within one call, cooldowns
// per route on an injected clock, and the return to the primary once its cooldown has ended.
import { assistantText, type LlmRequest, type RoutingConfig, type Runtime } from "@iris/llm";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { AgentEvents } from "../events.js";
import { parseFallbackProviders, type RouteSpec, resolverFromConfig } from "./fallback-chain.js";
import { ResilientModelClient } from "./resilient-client.js";

const request: Omit<LlmRequest, "model"> = { system: "sys", messages: [{ role: "user", content: "hi" }] };

let open: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(open.map((f) => f.close()));
  open = [];
});

async function chainOf(fallbacks: (fakes: FakeLlm[]) => RouteSpec[]) {
  const fakes = await Promise.all([startFakeLlm(), startFakeLlm(), startFakeLlm()]);
  open.push(...fakes);
  const config: RoutingConfig = {
    providers: {
      r0: { base_url: fakes[0]!.baseUrl, api_key_env: "KEY_0" },
      r1: { base_url: fakes[1]!.baseUrl, api_key_env: "KEY_1" },
      // The third route speaks another api mode: activation must re-detect it from the runtime.
      r2: { base_url: fakes[2]!.baseUrl, api_key_env: "KEY_2", api_mode: "anthropic_messages" },
    },
  };
  const env = { KEY_0: "key-0", KEY_1: "key-1", KEY_2: "key-2" };
  let resolutions = 0;
  const base = resolverFromConfig(config, () => env);
  const resolve = (spec: RouteSpec) => {
    resolutions += 1;
    return base(spec);
  };
  const primary = base({ provider: "r0", model: "m0" });
  if (!("ok" in primary) || !primary.ok) throw new Error("primary did not resolve");
  const clock = { t: 1_000_000 };
  const events = new AgentEvents();
  const seen = {
    activated: [] as string[],
    restored: [] as string[],
    changes: [] as Runtime[],
    status: [] as string[],
  };
  events.on("fallback_activated", (e) => seen.activated.push(`${e.from} -> ${e.to}`));
  events.on("route_restored", (e) => seen.restored.push(`${e.from} -> ${e.to}`));
  events.on("status", (e) => seen.status.push(e.message));
  const client = new ResilientModelClient({
    primary: primary.runtime,
    fallbacks: fallbacks(fakes),
    resolve,
    events,
    onRouteChange: (rt) => seen.changes.push(rt),
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1, retryAfterCapMs: 1 },
    cooldownMs: 60_000,
    now: () => clock.t,
    sleep: async () => true,
  });
  const call = async () => {
    const res = await client.call(request, {
      signal: new AbortController().signal,
      onEvent: () => {},
      stepId: 1,
    });
    return res.ok ? assistantText(res.message) : `error:${res.error.kind}`;
  };
  return { fakes, client, clock, seen, call, resolutions: () => resolutions };
}

const threeRoutes = (): RouteSpec[] => [
  { provider: "r1", model: "m1" },
  { provider: "r2", model: "m2" },
];

describe("a fallback chain of three", () => {
  it("the first two fail, the third answers in the same call; the primary returns after its cooldown", async () => {
    const c = await chainOf(threeRoutes);
    const [a, b, z] = c.fakes as [FakeLlm, FakeLlm, FakeLlm];
    a.enqueue(
      { fault: "status", status: 503 },
      { fault: "status", status: 503 },
      { fault: "status", status: 503 },
    );
    b.enqueue({ fault: "status", status: 404 });
    z.enqueue({ text: "third answers" });
    expect(c.resolutions()).toBe(0); // fallbacks are resolved at activation, not at start

    expect(await c.call()).toBe("third answers");
    expect(a.requests).toHaveLength(3); // first attempt + 2 retries
    expect(b.requests).toHaveLength(1); // 404: no retry
    expect(c.seen.activated).toEqual(["r0/m0 -> r1/m1", "r1/m1 -> r2/m2"]);
    expect(c.client.route()).toEqual({
      provider: "r2",
      model: "m2",
      apiMode: "anthropic_messages",
      baseUrl: z.baseUrl,
    });
    expect(z.requests[0]?.apiMode).toBe("anthropic_messages");
    expect(z.requests[0]?.headers["x-api-key"]).toBe("key-2");
    expect(c.seen.changes.map((r) => `${r.provider}:${r.apiMode}`)).toEqual([
      "r1:chat_completions",
      "r2:anthropic_messages",
    ]);
    expect(c.client.cooldownRemainingMs(0)).toBe(60_000);

    // Next turn, 30 s later: both failed routes still cool down, the third keeps serving.
    c.clock.t += 30_000;
    z.enqueue({ text: "still third" });
    expect(await c.call()).toBe("still third");
    expect(a.requests).toHaveLength(3);
    expect(b.requests).toHaveLength(1);

    // Past the cooldown the primary is tried first again.
    c.clock.t += 31_000;
    a.enqueue({ text: "primary again" });
    expect(await c.call()).toBe("primary again");
    expect(c.seen.restored).toEqual(["r2/m2 -> r0/m0"]);
    expect(c.client.route().provider).toBe("r0");
    expect(c.seen.changes.at(-1)?.provider).toBe("r0");
    for (const f of c.fakes) expect(f.violations).toEqual([]);
  });

  it("every route failing walks the chain once and returns the last error", async () => {
    const c = await chainOf(threeRoutes);
    const [a, b, z] = c.fakes as [FakeLlm, FakeLlm, FakeLlm];
    a.enqueue({ fault: "status", status: 404 });
    b.enqueue({ fault: "status", status: 404 });
    z.enqueue({ fault: "status", status: 404 });
    expect(await c.call()).toBe("error:not_found");
    expect(c.fakes.map((f) => f.requests.length)).toEqual([1, 1, 1]);
    expect(c.seen.status.at(-1)).toContain("no fallback route left to try");
    expect(c.resolutions()).toBe(2);
  });

  it("entries equal to the failing route are skipped; the walk goes on in order", async () => {
    const c = await chainOf((fakes) => [
      { provider: "r0", model: "m0", baseUrl: fakes[0]!.baseUrl },
      { provider: "r2", model: "m2" },
      { provider: "r1", model: "m1" },
    ]);
    const [a, b, z] = c.fakes as [FakeLlm, FakeLlm, FakeLlm];
    a.enqueue({ fault: "status", status: 401 });
    z.enqueue({ fault: "status", status: 404 });
    b.enqueue({ text: "r1 last in the list" });
    expect(await c.call()).toBe("r1 last in the list");
    expect(a.requests).toHaveLength(1);
    expect(c.seen.activated).toEqual(["r0/m0 -> r2/m2", "r2/m2 -> r1/m1"]);
    expect(c.seen.status.some((s) => s === "fallback r0/m0 skipped: same route as the one that failed")).toBe(
      true,
    );
  });
});

describe("the same chain for a subagent", () => {
  it("spawn() starts on the primary but shares the cooldowns: a route that just failed is passed over", async () => {
    const c = await chainOf(threeRoutes);
    const [a, b] = c.fakes as [FakeLlm, FakeLlm, FakeLlm];
    a.enqueue({ fault: "status", status: 404 });
    b.enqueue({ text: "parent on r1" }, { text: "child on r1" });
    expect(await c.call()).toBe("parent on r1");
    const child = c.client.spawn();
    expect(child.chain().map((r) => r.provider)).toEqual(["r0", "r1", "r2"]);
    expect(child.route().provider).toBe("r0");
    const res = await child.call(request, {
      signal: new AbortController().signal,
      onEvent: () => {},
      stepId: 1,
    });
    expect(res.ok && assistantText(res.message)).toBe("child on r1");
    expect(a.requests).toHaveLength(1); // the child did not hit the cooling primary
    expect(c.seen.activated.at(-1)).toBe("r0/m0 -> r1/m1");
  });
});

describe("fallback_providers config", () => {
  it("accepts an ordered list of {provider, model, base_url?}", () => {
    const res = parseFallbackProviders([
      { provider: "openrouter", model: "x/y" },
      { provider: "custom", model: "local", base_url: "http://127.0.0.1:8080/v1" },
    ]);
    expect(res).toEqual({
      ok: true,
      routes: [
        { provider: "openrouter", model: "x/y" },
        { provider: "custom", model: "local", baseUrl: "http://127.0.0.1:8080/v1" },
      ],
    });
    expect(parseFallbackProviders(undefined)).toEqual({ ok: true, routes: [] });
  });

  it("names the entry and field that is wrong", () => {
    const missing = parseFallbackProviders([{ provider: "a", model: "b" }, { provider: "c" }]);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toMatch(/^fallback_providers\[1\]\.model: /);
    const unknown = parseFallbackProviders([{ provider: "a", model: "b", key: "sk-x" }]);
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toContain("fallback_providers[0]");
    expect(parseFallbackProviders({ provider: "a" }).ok).toBe(false);
  });
});
