// SPEC P3 end to end: two fake servers, a "commercial" endpoint that owns a key and a "custom"
// one. Real requests go through completeLlm; the custom server must never see the key.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiMode } from "../types.js";
import { completeLlm } from "../wire/stream.js";
import "./builtin/index.js";
import { type RoutingConfig, type RuntimeRequest, resolveRuntime } from "./resolve.js";

const COMMERCIAL_KEY = "sk-commercial-key-DO-NOT-LEAK-0123456789";
const OTHER_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-other-key-DO-NOT-LEAK-0123456789",
  OPENROUTER_API_KEY: "sk-or-v1-other-key-DO-NOT-LEAK-01234567",
};
const ALL_KEYS = [COMMERCIAL_KEY, ...Object.values(OTHER_KEYS)];

let commercial: FakeLlm;
let custom: FakeLlm;

beforeAll(async () => {
  [commercial, custom] = await Promise.all([startFakeLlm(), startFakeLlm()]);
});
afterAll(async () => {
  await Promise.all([commercial?.close(), custom?.close()]);
});

/** The commercial server plays the provider's own endpoint: configured with its key. */
function config(provider: string, apiMode?: ApiMode): RoutingConfig {
  return {
    providers: {
      [provider]: {
        base_url: commercial.baseUrl,
        api_key_env: "COMMERCIAL_KEY",
        ...(apiMode ? { api_mode: apiMode } : {}),
      },
    },
  };
}
const env = { COMMERCIAL_KEY, OPENAI_API_KEY: COMMERCIAL_KEY, ...OTHER_KEYS };

async function send(
  req: RuntimeRequest,
  cfg: RoutingConfig,
  server: FakeLlm,
  environment: Record<string, string | undefined> = env,
) {
  const resolved = resolveRuntime(req, cfg, environment);
  if (!resolved.ok) throw new Error(resolved.error);
  server.enqueue({ text: "hi" });
  const before = server.requests.length;
  const result = await completeLlm(resolved.runtime, {
    model: resolved.runtime.model,
    messages: [{ role: "user", content: "hello" }],
  });
  expect(result.ok).toBe(true);
  expect(server.requests.length).toBe(before + 1);
  return {
    runtime: resolved.runtime,
    notes: resolved.notes,
    request: server.requests[server.requests.length - 1]!,
  };
}

function leaked(request: FakeLlm["requests"][number]): string[] {
  const seen = [...Object.values(request.headers), request.rawBody.toString("utf8"), request.path];
  return ALL_KEYS.filter((k) => seen.some((v) => v.includes(k)));
}

describe("a key only ever reaches its own endpoint", () => {
  for (const apiMode of ["chat_completions", "responses", "anthropic_messages"] as const) {
    it(`${apiMode}: the commercial endpoint gets its key, the custom one gets none`, async () => {
      const provider = apiMode === "anthropic_messages" ? "anthropic" : "openai";
      const cfg = config(provider, apiMode);
      // Positive control: the key does travel to the endpoint it belongs to.
      const own = await send({ provider, model: "m-1" }, cfg, commercial);
      const header =
        apiMode === "anthropic_messages"
          ? own.request.headers["x-api-key"]
          : own.request.headers.authorization;
      expect(header).toContain(COMMERCIAL_KEY);

      const moved = await send({ provider, model: "m-1", baseUrl: custom.baseUrl }, cfg, custom);
      expect(moved.runtime.apiKey).toBeUndefined();
      expect(moved.request.headers.authorization).toBeUndefined();
      expect(moved.request.headers["x-api-key"]).toBeUndefined();
      expect(leaked(moved.request)).toEqual([]);
      expect(moved.notes.join("\n")).toContain("NOT sent");
    });
  }

  it("provider custom and a config-defined provider get no commercial key from env", async () => {
    const a = await send({ provider: "custom", model: "m", baseUrl: custom.baseUrl }, {}, custom);
    expect(leaked(a.request)).toEqual([]);
    const b = await send(
      {},
      { model: { provider: "mybox", name: "m" }, providers: { mybox: { base_url: custom.baseUrl } } },
      custom,
    );
    expect(b.runtime.provider).toBe("mybox");
    expect(leaked(b.request)).toEqual([]);
  });

  it("a stale OPENAI_BASE_URL pointing at the custom server carries no key there", async () => {
    const { request, runtime } = await send({ provider: "openai", model: "m" }, {}, custom, {
      ...env,
      OPENAI_BASE_URL: custom.baseUrl,
    });
    expect(runtime.source.baseUrl).toBe("env");
    expect(leaked(request)).toEqual([]);
  });

  it("across every request the custom server ever received, no key appeared", () => {
    expect(custom.requests.length).toBeGreaterThanOrEqual(6);
    for (const r of custom.requests) expect(leaked(r)).toEqual([]);
  });
});
