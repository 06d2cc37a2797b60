import { statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@iris/testkit";
import { describe, expect, it } from "vitest";
import { loadToken, WebchatAuth } from "./auth.js";

const cookieOf = (setCookie: string) => setCookie.split(";")[0] ?? "";

describe("web chat login", () => {
  it("sets an HttpOnly, SameSite=Strict cookie for the right token and knows the user by it", () => {
    const auth = new WebchatAuth("t".repeat(32));
    const r = auth.login("t".repeat(32), "ann");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect(r.cookie).not.toContain("t".repeat(32));
    expect(auth.user(cookieOf(r.cookie))).toBe("ann");
    // Another token's cookie, or a forged name, is nobody.
    expect(new WebchatAuth("u".repeat(32)).user(cookieOf(r.cookie))).toBeUndefined();
    expect(auth.user(cookieOf(r.cookie).replace("ann.", "bob."))).toBeUndefined();
  });

  it("refuses a wrong token, a bad name, and locks after ten wrong tokens a minute", () => {
    let now = 0;
    const auth = new WebchatAuth("t".repeat(32), () => now);
    expect(auth.login("t".repeat(32), "a b")).toMatchObject({ ok: false, status: 400 });
    for (let i = 0; i < 10; i++) expect(auth.login("wrong", "ann")).toMatchObject({ ok: false, status: 401 });
    expect(auth.login("t".repeat(32), "ann")).toMatchObject({ ok: false, status: 429 });
    now += 61_000;
    expect(auth.login("t".repeat(32), "ann")).toMatchObject({ ok: true });
  });

  it("keeps the token in the profile, readable by its owner only", () => {
    const dir = tempDir("iris-webchat-token");
    try {
      const file = join(dir.path, "webchat.token");
      const first = loadToken(file);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadToken(file)).toBe(first);
      expect(loadToken(undefined)).not.toBe(first);
    } finally {
      dir.cleanup();
    }
  });
});
