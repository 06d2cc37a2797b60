import { afterEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("GET /v1/models with a key", () => {
  it("answers a missing key with OpenAI's 401 and no list", async () => {
    fake = await startFakeLlm({ apiKey: "sk-right-key-1234", models: ["m-1"] });
    const res = await fetch(`${fake.baseUrl}/models`);
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { message: string; type: string; code: unknown } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(/didn't provide an API key/);
  });

  it("answers a wrong key with invalid_api_key, never echoing the key whole", async () => {
    fake = await startFakeLlm({ apiKey: "sk-right-key-1234" });
    const res = await fetch(`${fake.baseUrl}/models`, {
      headers: { authorization: "Bearer sk-wrong-key-9999" },
    });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).toContain("invalid_api_key");
    expect(text).not.toContain("sk-wrong-key-9999");
  });

  it("lists the models for the right key, by Bearer or x-api-key", async () => {
    fake = await startFakeLlm({ apiKey: "sk-right-key-1234", models: ["m-1", "m-2"] });
    const byHeader: Record<string, string>[] = [
      { authorization: "Bearer sk-right-key-1234" },
      { "x-api-key": "sk-right-key-1234" },
    ];
    for (const headers of byHeader) {
      const res = await fetch(`${fake.baseUrl}/models`, { headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        object: string;
        data: { id: string; object: string; created: number }[];
      };
      expect(body.object).toBe("list");
      expect(body.data.map((m) => m.id)).toEqual(["m-1", "m-2"]);
      expect(typeof body.data[0]?.created).toBe("number");
    }
  });

  it("guards the chat route with the same key", async () => {
    fake = await startFakeLlm({ apiKey: "sk-right-key-1234" });
    const res = await fetch(`${fake.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(401);
  });
});
