import { describe, expect, it } from "vitest";
import { classifyHttpError, classifyPayloadError, parseRetryAfter, scrubSecrets } from "./classify.js";

const KEY = "sk-test-SECRET-1234567890";

function http(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return classifyHttpError(status, new Headers(headers), text, [KEY], Date.parse("2026-11-30T12:00:00Z"));
}

describe("classifyHttpError", () => {
  it.each([
    [401, { error: { message: "Incorrect API key provided" } }, "auth"],
    [403, { error: { message: "forbidden" } }, "auth"],
    [404, { error: { message: "not here" } }, "not_found"],
    [400, { error: { message: "The model `gpt-9` does not exist", code: "model_not_found" } }, "not_found"],
    [429, { error: { message: "Rate limit reached for requests" } }, "rate_limit"],
    [429, { error: { message: "You exceeded your current quota", code: "insufficient_quota" } }, "billing"],
    [402, { error: "Payment Required" }, "billing"],
    [400, { error: { message: "This model's maximum context length is 128000 tokens" } }, "context_overflow"],
    [
      413,
      { type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum size" } },
      "context_overflow",
    ],
    [
      400,
      {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 210000 tokens > 200000 maximum",
        },
      },
      "context_overflow",
    ],
    [400, { error: { message: "messages: field required" } }, "invalid_request"],
    [422, { detail: "bad" }, "invalid_request"],
    [500, "<html>Internal Server Error</html>", "server"],
    [503, "", "server"],
    [529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "server"],
  ] as const)("HTTP %i → %s", (status, body, kind) => {
    const e = http(status, body);
    expect(e.kind).toBe(kind);
    expect(e.status).toBe(status);
    expect(e.message).toContain(`HTTP ${status}`);
  });

  it("keeps the provider's message and code but never the key", () => {
    const e = http(401, {
      error: { message: `Incorrect API key provided: ${KEY}`, code: "invalid_api_key" },
    });
    expect(e.message).toContain("Incorrect API key provided");
    expect(e.message).not.toContain(KEY);
    expect(e.code).toBe("invalid_api_key");
    expect(e.retryable).toBe(false);
  });

  it("reads Retry-After in seconds, as an HTTP date, and retry-after-ms", () => {
    expect(http(429, {}, { "retry-after": "7" }).retryAfterMs).toBe(7000);
    expect(http(429, {}, { "retry-after": "Mon, 30 Nov 2026 12:00:30 GMT" }).retryAfterMs).toBe(30_000);
    expect(http(429, {}, { "retry-after-ms": "1500", "retry-after": "9" }).retryAfterMs).toBe(1500);
    expect(http(429, {}).retryAfterMs).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("classifyPayloadError", () => {
  it("classifies an error object sent inside a 200 stream", () => {
    expect(classifyPayloadError({ error: { message: "Rate limit exceeded", code: 429 } }).kind).toBe(
      "rate_limit",
    );
    expect(classifyPayloadError({ error: { message: "context_length_exceeded" } }).kind).toBe(
      "context_overflow",
    );
    expect(classifyPayloadError({ error: { message: "upstream failed" } }).kind).toBe("server");
  });
});

describe("scrubSecrets", () => {
  it("removes keys and bearer tokens", () => {
    const text = scrubSecrets(`key ${KEY} and Authorization: Bearer abcdefgh12345678`, [KEY]);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("abcdefgh12345678");
  });
});
