import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { minimalBody, post } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm({ models: ["model-a", "model-b"] });
});
afterEach(async () => {
  await fake.close();
});

describe("request recording", () => {
  it("records method, path, headers, raw bytes, parsed body and api mode", async () => {
    fake.enqueue({ text: "a" }, { text: "b" });
    const raw = `{"model":"claude-fake","messages":[{"role":"user","content":"héllo"}],   "max_tokens":5}`;
    await post(fake, "anthropic", raw, {
      headers: { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01" },
    });
    await post(fake, "chat", minimalBody("chat", false), { headers: { authorization: "Bearer sk-openai" } });
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    expect(first?.method).toBe("POST");
    expect(first?.path).toBe("/v1/messages");
    expect(first?.apiMode).toBe("anthropic_messages");
    expect(first?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first?.rawBody.equals(Buffer.from(raw, "utf8"))).toBe(true);
    expect(first?.body).toMatchObject({ messages: [{ content: "héllo" }] });
    expect(second?.headers.authorization).toBe("Bearer sk-openai");
    expect(second?.apiMode).toBe("chat_completions");
    expect(first?.rejected).toBeUndefined();
  });

  it("keeps the raw bytes of a body that is not JSON", async () => {
    await post(fake, "responses", "not json at all");
    expect(fake.requests[0]?.rawBody.toString("utf8")).toBe("not json at all");
    expect(fake.requests[0]?.body).toBeUndefined();
    expect(fake.violations[0]?.rejected).toBe("body.not_json at body");
  });
});

describe("routes", () => {
  it("lists the configured models in OpenAI's list shape without using a scripted step", async () => {
    const res = await fetch(`${fake.baseUrl}/models`, { headers: { authorization: "Bearer k" } });
    expect(await res.json()).toMatchObject({
      object: "list",
      data: [
        { id: "model-a", object: "model", owned_by: "fake-llm" },
        { id: "model-b", object: "model" },
      ],
    });
    expect(fake.requests[0]?.apiMode).toBe("models");
  });

  it("answers 404 on an unknown route", async () => {
    const res = await fetch(`${fake.baseUrl}/embeddings`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(fake.requests[0]?.apiMode).toBe("unknown");
  });

  it("binds to 127.0.0.1 and reports its port in baseUrl", () => {
    expect(fake.baseUrl).toBe(`http://127.0.0.1:${fake.port}/v1`);
    expect(fake.port).toBeGreaterThan(0);
  });

  it("mints ids deterministically from a counter", async () => {
    const ids: string[] = [];
    for (let round = 0; round < 2; round++) {
      const server = await startFakeLlm();
      server.enqueue({ text: "x" });
      const res = await post(server, "chat", minimalBody("chat", false));
      ids.push(((await res.json()) as { id: string }).id);
      await server.close();
    }
    expect(ids[0]).toBe(ids[1]);
  });
});
