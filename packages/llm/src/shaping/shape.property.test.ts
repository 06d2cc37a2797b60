// Property-style: random stored histories (mixed providers and api modes, reasoning of every
// kind, parallel calls, interrupted turns, reused and composite ids, images, compaction nodes),
// shaped for each api mode, built by the real adapters and sent to the fake server, whose
// real-API 400 rules must never fire.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../runtime.js";
import type { ApiMode, Message, ToolSpec } from "../types.js";
import { API_MODES, toolCallsOf } from "../types.js";
import { adapterFor } from "../wire/adapters.js";
import type { ExpandHook } from "./expand.js";
import { type ShapeTarget, shapeForTarget } from "./shape.js";
import { sameRoute } from "./target.js";
import { compactionId, prng, type Rand, randomStoredPath } from "./test/random-history.js";

// Issue 11 check (d): 1,000 random long histories (tool rounds, interrupted calls, compactions,
// reasoning signed by the primary server), each shaped for a random api mode on the primary or on
// a fallback server that never issued that reasoning, and sent: the strict server (signatures,
// shapes) must never reject one. IRIS_SHAPING_SEEDS=5000 for a longer hunt.
const SEEDS = Number(process.env["IRIS_SHAPING_SEEDS"] ?? 1000);
const TARGET_PROVIDERS: Record<ApiMode, readonly string[]> = {
  chat_completions: ["openai", "deepseek", "llamacpp", "openrouter"],
  responses: ["openai", "vllm"],
  anthropic_messages: ["anthropic"],
};

let fake: FakeLlm;
/** A fallback route: same providers, another endpoint (account) that issued none of the reasoning. */
let fallback: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "ok" }));
  fallback = await startFakeLlm();
  fallback.setHandler(() => ({ text: "ok" }));
});
afterAll(async () => {
  await fake.close();
  await fallback.close();
});

function runtimeFor(target: ShapeTarget, rand: Rand, server: FakeLlm): Runtime {
  return {
    provider: target.provider,
    apiMode: target.apiMode,
    baseUrl: server.baseUrl,
    model: target.model,
    headers: {},
    compat: { auth: "none", reasoningContent: rand() < 0.5 },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "none",
    },
  };
}

function toolsFor(history: readonly Message[]): ToolSpec[] {
  const names = new Set<string>();
  for (const m of history) {
    if (m.role === "assistant") for (const c of toolCallsOf(m)) names.add(c.name);
    if (m.role === "tool") names.add(m.toolName);
  }
  return [...names].map((name) => ({
    name,
    description: `the ${name} tool`,
    parameters: { type: "object" },
  }));
}

/** Invariants the fake server does not check but a real provider would. */
function checkShaped(
  messages: readonly Message[],
  target: ShapeTarget,
  body: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const p of m.parts) {
      if (p.type === "reasoning" && p.raw && !sameRoute(m.origin, target))
        problems.push("foreign raw reasoning kept");
      if (p.type === "toolCall" && p.providerIds && !sameRoute(m.origin, target))
        problems.push("foreign provider ids kept");
    }
  }
  const json = JSON.stringify(body);
  if (
    target.vision === false &&
    /"(image_url|input_image|image)"/.test(json.replace(/"type":"text","text":"[^"]*"/g, ""))
  ) {
    problems.push("image sent to a text-only model");
  }
  const wire = wireCallIds(target.apiMode, body);
  if (new Set(wire.calls).size !== wire.calls.length)
    problems.push(`duplicate wire call ids ${wire.calls.join(",")}`);
  if ([...wire.results].sort().join() !== [...wire.calls].sort().join())
    problems.push("results do not match calls");
  return problems;
}

function wireCallIds(mode: ApiMode, body: Record<string, unknown>): { calls: string[]; results: string[] } {
  const list = (mode === "responses" ? body["input"] : body["messages"]) as Record<string, unknown>[];
  const items =
    mode === "anthropic_messages" ? list.flatMap((m) => m["content"] as Record<string, unknown>[]) : list;
  const out = { calls: [] as string[], results: [] as string[] };
  for (const b of items) {
    if (mode === "chat_completions") {
      for (const c of (b["tool_calls"] ?? []) as Record<string, unknown>[]) out.calls.push(String(c["id"]));
      if (b["role"] === "tool") out.results.push(String(b["tool_call_id"]));
    } else if (mode === "responses") {
      if (b["type"] === "function_call") out.calls.push(String(b["call_id"]));
      if (b["type"] === "function_call_output") out.results.push(String(b["call_id"]));
    } else {
      if (b["type"] === "tool_use") out.calls.push(String(b["id"]));
      if (b["type"] === "tool_result") out.results.push(String(b["tool_use_id"]));
    }
  }
  return out;
}

describe("shapeForTarget: random stored histories are always accepted", () => {
  it(
    `${SEEDS} seeds × 3 api modes pass the fake server's 400 rules`,
    async () => {
      let removedTotal = 0;
      let droppedTotal = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const rand = prng(seed);
        const { history, originals } = randomStoredPath(rand, {
          issuer: fake.baseUrl,
          issue: (kind, text) => fake.issue(kind, text),
        });
        const expand: ExpandHook = (m, t) => {
          const id = compactionId(m);
          if (id === undefined || (t.provider === "openai" && t.apiMode === "responses")) return undefined;
          return originals.get(id) ?? [];
        };
        for (const apiMode of API_MODES) {
          const provider =
            TARGET_PROVIDERS[apiMode][Math.floor(rand() * TARGET_PROVIDERS[apiMode].length)] ?? "openai";
          const server = rand() < 0.5 ? fake : fallback;
          const target: ShapeTarget = {
            provider,
            apiMode,
            model: "model-a",
            issuer: server.baseUrl,
            ...(rand() < 0.3 ? { vision: false } : {}),
            ...(rand() < 0.3 ? { contextWindow: 200 + Math.floor(rand() * 3000) } : {}),
          };
          const system = rand() < 0.5 ? "You are Iris." : undefined;
          const shaped = shapeForTarget(history, target, { expand, ...(system ? { system } : {}) });
          const where = `seed ${seed}, target ${provider}/${apiMode} on the ${server === fake ? "primary" : "fallback"}`;
          removedTotal += shaped.removed.length;
          droppedTotal += shaped.dropped;

          const other = shapeForTarget(
            history,
            { ...target, model: "model-b" },
            { expand, ...(system ? { system } : {}) },
          );
          expect(other, `${where}: a model switch changed the shaped history`).toEqual(shaped);

          const again = shapeForTarget(shaped.messages, { ...target, contextWindow: undefined });
          expect(again.messages, `${where}: shaping is not idempotent`).toEqual(shaped.messages);
          expect(again.removed, `${where}: a second pass still removed something`).toEqual([]);

          const built = adapterFor(apiMode).buildRequest(runtimeFor(target, rand, server), {
            model: target.model,
            ...(system ? { system } : {}),
            messages: shaped.messages,
            tools: toolsFor(shaped.messages),
            stream: false,
          });
          expect(checkShaped(shaped.messages, target, built.body), where).toEqual([]);
          const before = server.violations.length;
          const res = await fetch(server.baseUrl + built.path, {
            method: "POST",
            headers: { "content-type": "application/json", ...built.headers },
            body: JSON.stringify(built.body),
          });
          const reply = await res.text();
          const rejected = server.violations.slice(before).map((v) => v.rejected);
          expect(rejected, `${where}: ${reply}\nshaped: ${JSON.stringify(shaped.messages)}`).toEqual([]);
          expect(res.status, `${where}: ${reply}`).toBe(200);
        }
      }
      // The generator really produces broken histories, or the test proves nothing.
      expect(removedTotal).toBeGreaterThan(SEEDS / 10);
      expect(droppedTotal).toBeGreaterThan(0);
    },
    120_000 + SEEDS * 200,
  ); // a safety net on a busy machine, not a speed target
});
