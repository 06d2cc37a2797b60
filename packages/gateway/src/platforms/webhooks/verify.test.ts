import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderPrompt, signatureValid, tokenValid } from "./verify.js";

describe("webhook checks", () => {
  const body = Buffer.from('{"action":"opened"}');
  const sig = `sha256=${createHmac("sha256", "s3cret").update(body).digest("hex")}`;

  it("accepts GitHub's signature and nothing else", () => {
    expect(signatureValid("s3cret", body, sig)).toBe(true);
    expect(signatureValid("other", body, sig)).toBe(false);
    expect(signatureValid("s3cret", Buffer.from('{"action":"closed"}'), sig)).toBe(false);
    expect(signatureValid("s3cret", body, sig.replace("sha256=", "sha1="))).toBe(false);
    expect(signatureValid("s3cret", body, "sha256=abc")).toBe(false);
    expect(signatureValid("s3cret", body, undefined)).toBe(false);
  });

  it("compares a shared-secret header", () => {
    expect(tokenValid("s3cret", "s3cret")).toBe(true);
    expect(tokenValid("s3cret", "s3cre")).toBe(false);
    expect(tokenValid("s3cret", undefined)).toBe(false);
  });

  it("fills the template from the body, naming what is missing", () => {
    const b = { pr: { title: "Fix it", labels: ["bug"] }, n: 3 };
    expect(renderPrompt("Review {{pr.title}} ({{n}}) {{pr.labels}} {{nope.x}}", b)).toBe(
      'Review Fix it (3) [\n  "bug"\n] (no nope.x)',
    );
    expect(renderPrompt("{{body}}", { a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
