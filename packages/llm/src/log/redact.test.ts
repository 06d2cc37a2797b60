import { afterEach, describe, expect, it } from "vitest";
import { clearSecrets, REDACTED, redact, redactValue, registerSecret } from "./redact.js";

afterEach(() => clearSecrets());

describe("redact", () => {
  it("replaces registered secrets wherever they appear", () => {
    registerSecret("plain-looking-secret-value");
    expect(redact("a plain-looking-secret-value b plain-looking-secret-value")).toBe(
      `a ${REDACTED} b ${REDACTED}`,
    );
  });

  it("ignores values too short to be keys", () => {
    registerSecret("abc");
    expect(redact("abc def")).toBe("abc def");
  });

  it("replaces credential shapes nobody registered", () => {
    const cases: [string, string][] = [
      ["Authorization: Bearer abc.def-ghi_jkl", `Authorization: Bearer ${REDACTED}`],
      ['{"authorization":"Bearer tok_1234567890"}', `{"authorization":"Bearer ${REDACTED}"}`],
      ["x-api-key: k-1234567890", `x-api-key: ${REDACTED}`],
      ["OPENAI_API_KEY=sk-proj-abcdefghijklmnop", `OPENAI_API_KEY=${REDACTED}`],
      ["key sk-ant-api03-abcdefghijklmnopqrstuv used", `key ${REDACTED} used`],
      ["token bearer eyJhbGciOiJIUzI1NiJ9.payload", `token Bearer ${REDACTED}`],
      ["google AIzaSyA1234567890abcdefghijklmnopqrstu", `google ${REDACTED}`],
      ["groq gsk_abcdefghijklmnopqrstuvwx", `groq ${REDACTED}`],
    ];
    for (const [input, want] of cases) expect(redact(input)).toBe(want);
  });

  it("leaves ordinary text alone", () => {
    const text = "apiKeyEnv is OPENAI_API_KEY; the task-list has 3 items; skip-this";
    expect(redact(text)).toBe(text);
  });
});

describe("redactValue", () => {
  it("walks nested fields, arrays, errors and causes", () => {
    registerSecret("nested-secret-000000");
    const cause = new Error("inner nested-secret-000000");
    const err = Object.assign(new Error("outer Bearer xyz1234567890", { cause }), { status: 401 });
    const out = redactValue({
      runtime: { apiKey: "whatever-it-is", headers: { Authorization: "Bearer q" } },
      list: ["nested-secret-000000", 1, true, null],
      err,
    });
    const text = JSON.stringify(out);
    expect(text).not.toContain("nested-secret-000000");
    expect(text).not.toContain("xyz1234567890");
    expect(text).not.toContain("whatever-it-is");
    expect(out).toMatchObject({
      runtime: { apiKey: REDACTED, headers: { Authorization: REDACTED } },
      list: [REDACTED, 1, true, null],
      err: {
        name: "Error",
        message: `outer Bearer ${REDACTED}`,
        status: 401,
        cause: { message: `inner ${REDACTED}` },
      },
    });
  });

  it("cuts cycles", () => {
    const a: Record<string, unknown> = { name: "a" };
    a.self = a;
    expect(redactValue(a)).toEqual({ name: "a", self: "[Circular]" });
  });
});
