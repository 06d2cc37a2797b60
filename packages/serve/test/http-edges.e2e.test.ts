// Bad input and limits over plain HTTP (SPEC E3): every refusal is an OpenAI-shaped error with
// the right status that names what is wrong; nothing reaches the model and nothing crashes.
import { request } from "node:http";
import { loadProfile } from "@iris/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeStartError, startServer } from "../src/server.js";
import { ALICE, BOB, type Harness, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}, key = ALICE) {
  return fetch(`${h.baseURL}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function errorOf(res: Response) {
  const body = (await res.json()) as {
    error: { message: string; type: string; code: string | null; param: string | null };
  };
  return { status: res.status, ...body.error };
}

describe("bad input", () => {
  beforeEach(async () => {
    h = await startHarness({ serve: ["  max_body_bytes: 2048"] });
  });

  it("a malformed JSON body is a 400 that says so", async () => {
    const e = await errorOf(await post("/chat/completions", "{not json"));
    expect(e).toMatchObject({ status: 400, type: "invalid_request_error", code: "invalid_json" });
    expect(e.message).toMatch(/not valid JSON/);
  });

  it("a wrong role is a 400 naming messages[i].role", async () => {
    const e = await errorOf(
      await post("/chat/completions", {
        model: "iris",
        messages: [
          { role: "user", content: "a" },
          { role: "wizard", content: "b" },
        ],
      }),
    );
    expect(e).toMatchObject({ status: 400, param: "messages[1].role" });
  });

  it("a missing field is a 400 naming it", async () => {
    const e = await errorOf(await post("/chat/completions", { model: "iris" }));
    expect(e).toMatchObject({ status: 400, param: "messages" });
  });

  it("an orphan tool message is a 400 naming its tool_call_id", async () => {
    const e = await errorOf(
      await post("/chat/completions", {
        model: "iris",
        messages: [
          { role: "user", content: "a" },
          { role: "tool", tool_call_id: "call_x", content: "r" },
        ],
      }),
    );
    expect(e).toMatchObject({ status: 400, param: "messages[1].tool_call_id" });
    expect(e.message).toContain("call_x");
  });

  it("an oversized body is a 413", async () => {
    const e = await errorOf(
      await post("/chat/completions", {
        model: "iris",
        messages: [{ role: "user", content: "x".repeat(5000) }],
      }),
    );
    expect(e).toMatchObject({ status: 413, code: "body_too_large" });
  });

  it("an oversized chunked body (no Content-Length) is a 413 too", async () => {
    const bytes = new TextEncoder().encode(
      JSON.stringify({ model: "iris", messages: [{ role: "user", content: "x".repeat(5000) }] }),
    );
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 1000) c.enqueue(bytes.subarray(i, i + 1000));
        c.close();
      },
    });
    const res = await fetch(`${h.baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(await errorOf(res)).toMatchObject({ status: 413, code: "body_too_large" });
    expect(h.fake.requests).toHaveLength(0);
  });

  it("an unknown model is a 404 listing the models", async () => {
    const e = await errorOf(
      await post("/chat/completions", { model: "gpt-5", messages: [{ role: "user", content: "a" }] }),
    );
    expect(e).toMatchObject({ status: 404, code: "model_not_found", param: "model" });
    expect(e.message).toContain("available: iris");
  });

  it("a client tool that takes the name of an Iris tool is a 400", async () => {
    const e = await errorOf(
      await post("/chat/completions", {
        model: "iris",
        messages: [{ role: "user", content: "a" }],
        tools: [{ type: "function", function: { name: "terminal", parameters: { type: "object" } } }],
      }),
    );
    expect(e).toMatchObject({ status: 400, param: "tools[0].function.name" });
  });

  it("a previous_response_id nobody issued is a 404; a bad input item a 400", async () => {
    const e = await errorOf(
      await post("/responses", { model: "iris", input: "a", previous_response_id: "resp_nope" }),
    );
    expect(e).toMatchObject({ status: 404, param: "previous_response_id" });
    const e2 = await errorOf(
      await post("/responses", {
        model: "iris",
        input: [{ type: "function_call_output", call_id: "c1", output: "x" }],
      }),
    );
    expect(e2).toMatchObject({ status: 400, param: "input[0].call_id" });
    expect(h.fake.requests).toEqual([]);
  });

  it("/health answers without a key; /v1 without one is a 401", async () => {
    expect(await (await fetch(`${h.server.url}/health`)).json()).toEqual({ status: "ok" });
    const res = await fetch(`${h.baseURL}/models`);
    expect(await errorOf(res)).toMatchObject({ status: 401, code: "invalid_api_key" });
  });
});

describe("limits and idempotency", () => {
  it("a key over its request rate gets 429 with Retry-After; another key is not affected", async () => {
    h = await startHarness({ serve: ["  requests_per_minute: 2"] });
    h.fake.setHandler(() => ({ text: "ok" }));
    const body = { model: "iris", messages: [{ role: "user", content: "a" }] };
    expect((await post("/chat/completions", body)).status).toBe(200);
    expect((await post("/chat/completions", body)).status).toBe(200);
    const third = await post("/chat/completions", body);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(third)).code).toBe("rate_limit_exceeded");
    expect((await post("/chat/completions", body, {}, BOB)).status).toBe(200);
  });

  it("a key over its concurrency gets 429 while its first request runs (no queue)", async () => {
    h = await startHarness({ serve: ["  max_concurrent_per_key: 1", "  queue_per_key: 0"] });
    h.fake.enqueue({ fault: "stall" });
    const controller = new AbortController();
    const ended = h.nextEvent((e) => e.name === "turn_completed");
    const first = await fetch(`${h.baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "iris", stream: true, messages: [{ role: "user", content: "slow" }] }),
      signal: controller.signal,
    });
    expect(first.status).toBe(200);
    const second = await post("/chat/completions", {
      model: "iris",
      messages: [{ role: "user", content: "b" }],
    });
    expect(second.status).toBe(429);
    expect((await errorOf(second)).code).toBe("concurrency_limit_exceeded");
    controller.abort();
    await ended;
  });

  it("Idempotency-Key replays the first answer for the same key and endpoint, never across API keys", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "first" }, { text: "second" }, { text: "third" });
    const body = { model: "iris", messages: [{ role: "user", content: "once" }] };
    const a = await (await post("/chat/completions", body, { "Idempotency-Key": "k1" })).json();
    const replay = await post("/chat/completions", body, { "Idempotency-Key": "k1" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(a);
    expect(h.fake.requests).toHaveLength(1);
    const bob = (await (await post("/chat/completions", body, { "Idempotency-Key": "k1" }, BOB)).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(bob.choices[0]?.message.content).toBe("second");
    const otherEndpoint = (await (
      await post("/responses", { model: "iris", input: "once" }, { "Idempotency-Key": "k1" })
    ).json()) as { output: { content: { text: string }[] }[] };
    expect(otherEndpoint.output[0]?.content[0]?.text).toBe("third");
    expect(h.fake.requests).toHaveLength(3);
  });

  it("a stream is replayed too, byte for byte", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "streamed once" });
    const body = { model: "iris", stream: true, messages: [{ role: "user", content: "s" }] };
    const first = await (await post("/chat/completions", body, { "Idempotency-Key": "s1" })).text();
    const again = await post("/chat/completions", body, { "Idempotency-Key": "s1" });
    expect(again.headers.get("content-type")).toContain("text/event-stream");
    expect(await again.text()).toBe(first);
    expect(first).toContain("data: [DONE]");
    expect(h.fake.requests).toHaveLength(1);
  });
});

/** A raw request with headers fetch would not let a test set (Host). */
function raw(url: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: body ? "POST" : "GET", headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("binding", () => {
  it("refuses a non-loopback address without API keys", async () => {
    h = await startHarness({ noKeys: true });
    const env = { IRIS_HOME: h.home.path, PATH: process.env.PATH ?? "", IRIS_LOG_LEVEL: "silent" };
    const profile = loadProfile({ env });
    if (!profile.ok) throw new Error("profile");
    await expect(startServer({ profile, host: "0.0.0.0", port: 0, env })).rejects.toThrow(ServeStartError);
    await expect(startServer({ profile, host: "0.0.0.0", port: 0, env })).rejects.toThrow(/serve\.api_keys/);
    // Loopback without keys needs none.
    expect((await fetch(`${h.baseURL}/models`)).status).toBe(200);
  });

  it("without keys, refuses browser pages (Origin), rebound host names (Host) and non-JSON bodies", async () => {
    h = await startHarness({ noKeys: true });
    h.fake.setHandler(() => ({ text: "ok" }));
    const models = `${h.baseURL}/models`;
    expect(await raw(models, {})).toBe(200);
    expect(await raw(models, { origin: "http://localhost:3000" })).toBe(200);
    expect(await raw(models, { origin: "https://evil.example" })).toBe(403);
    expect(await raw(models, { host: "evil.example:8642" })).toBe(403);
    const body = JSON.stringify({ model: "iris", messages: [{ role: "user", content: "hi" }] });
    const chat = `${h.baseURL}/chat/completions`;
    expect(await raw(chat, { "content-type": "text/plain" }, body)).toBe(415);
    expect(await raw(chat, { "content-type": "application/json" }, body)).toBe(200);
    expect(h.fake.requests).toHaveLength(1);
  });
});
