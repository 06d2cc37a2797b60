import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { type Mode, minimalBody, parseSse, post } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
});

/** Reads a body until it ends or fails; returns what arrived and the error, if any. */
async function readUntilError(res: Response): Promise<{ text: string; error: unknown }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

const modes: Mode[] = ["chat", "responses", "anthropic"];

describe.each(modes)("faults on %s", (mode) => {
  it("answers a scripted status with Retry-After and the vendor's error shape", async () => {
    fake.enqueue({ fault: "status", status: 429, retryAfter: "7", headers: { "x-request-id": "req_1" } });
    const res = await post(fake, mode, minimalBody(mode, true));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-request-id")).toBe("req_1");
    const body = (await res.json()) as Record<string, unknown>;
    if (mode === "anthropic")
      expect(body).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    else expect(body).toMatchObject({ error: { type: "rate_limit_exceeded" } });
  });

  it("sends a custom status body as given", async () => {
    fake.enqueue(
      { fault: "status", status: 503, body: { custom: true } },
      { fault: "status", status: 500, body: "oops" },
    );
    const json = await post(fake, mode, minimalBody(mode, false));
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ custom: true });
    const text = await post(fake, mode, minimalBody(mode, false));
    expect(await text.text()).toBe("oops");
  });

  it("stalls after the SSE headers until the client aborts", async () => {
    fake.enqueue({ fault: "stall" });
    const controller = new AbortController();
    const res = await post(fake, mode, minimalBody(mode, true), { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reading = readUntilError(res);
    controller.abort();
    const { text, error } = await reading;
    expect(text).toBe("");
    expect((error as Error).name).toBe("AbortError");
  });

  it("drops the connection after the given number of events", async () => {
    fake.enqueue({
      fault: "drop",
      reply: { text: "a long answer that keeps going", chunkSize: 3 },
      afterEvents: 3,
    });
    const res = await post(fake, mode, minimalBody(mode, true));
    expect(res.status).toBe(200);
    const { text, error } = await readUntilError(res);
    expect(error).toBeDefined();
    expect(parseSse(text)).toHaveLength(3);
  });

  it("drops a non-streaming reply halfway through its JSON", async () => {
    fake.enqueue({ fault: "drop", reply: { text: "whole" }, afterEvents: 0 });
    const res = await post(fake, mode, minimalBody(mode, false));
    const { text, error } = await readUntilError(res);
    expect(error).toBeDefined();
    expect(() => JSON.parse(text)).toThrow();
  });

  it("sends an SSE data line that is not JSON", async () => {
    fake.enqueue({ fault: "malformed" });
    const res = await post(fake, mode, minimalBody(mode, true));
    const events = parseSse(await res.text());
    const bad = events.filter((e) => {
      try {
        JSON.parse(e.data);
        return false;
      } catch {
        return true;
      }
    });
    expect(bad).toHaveLength(1);
    expect(events.length).toBeGreaterThan(1);
  });
});

describe("other faults and an empty script", () => {
  it("close() ends a stalled stream", async () => {
    fake.enqueue({ fault: "stall" });
    const res = await post(fake, "chat", minimalBody("chat", true));
    const reading = readUntilError(res);
    await fake.close();
    const { error } = await reading;
    expect(error).toBeDefined();
    fake = await startFakeLlm(); // afterEach closes this one
  });

  it("sends a raw response verbatim", async () => {
    fake.enqueue({
      fault: "raw",
      status: 502,
      headers: { "content-type": "text/html" },
      body: "<html>bad gateway</html>",
    });
    const res = await post(fake, "chat", minimalBody("chat", false));
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(await res.text()).toBe("<html>bad gateway</html>");
  });

  it("answers 500 'no scripted reply left' when nothing is queued and no handler is set", async () => {
    const res = await post(fake, "chat", minimalBody("chat", false));
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "fake-llm: no scripted reply left",
    );
  });

  it("uses the handler once the queue is empty", async () => {
    fake.enqueue({ text: "queued" });
    fake.setHandler((req) => ({ text: `handled ${req.apiMode}` }));
    const texts: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await post(fake, "anthropic", minimalBody("anthropic", false));
      texts.push(((await res.json()) as { content: { text: string }[] }).content[0]?.text);
    }
    expect(texts).toEqual(["queued", "handled anthropic_messages"]);
    fake.setHandler(undefined);
    expect((await post(fake, "chat", minimalBody("chat", false))).status).toBe(500);
  });
});
