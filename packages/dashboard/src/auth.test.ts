import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allowedHosts, COOKIE, DashboardAuth, loadOrCreateToken } from "./auth.js";
import { html, jsonScript } from "./html.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-dashboard-auth-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the login token", () => {
  it("is made once with mode 600 and read back", () => {
    const file = join(dir, "dashboard.token");
    const token = loadOrCreateToken(file);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateToken(file)).toBe(token);
    expect(readFileSync(file, "utf8").trim()).toBe(token);
  });

  it("logs in with the token only, gives an HttpOnly SameSite=Strict cookie, and slows down guessing", () => {
    let now = 1000;
    const auth = new DashboardAuth("t".repeat(40), () => now);
    const ok = auth.login(`${"t".repeat(40)}\n`);
    if (!ok.ok) throw new Error("login refused");
    expect(ok.cookie).toMatch(new RegExp(`^${COOKIE}=[\\w-]+; HttpOnly; SameSite=Strict; Path=/`));
    const session = auth.session(ok.cookie.split(";")[0]);
    expect(session?.csrf.length).toBeGreaterThan(20);
    expect(auth.session(`${COOKIE}=forged`)).toBeUndefined();
    for (let i = 0; i < 10; i++) expect(auth.login("wrong")).toMatchObject({ ok: false, status: 401 });
    expect(auth.login("t".repeat(40))).toMatchObject({ ok: false, status: 429 });
    now += 61_000;
    expect(auth.login("t".repeat(40)).ok).toBe(true);
    auth.logout(ok.cookie.split(";")[0]);
    expect(auth.session(ok.cookie.split(";")[0])).toBeUndefined();
  });

  it("answers to loopback names with its port and the bound address only", () => {
    expect([...allowedHosts("127.0.0.1", 9119)].sort()).toEqual([
      "127.0.0.1:9119",
      "[::1]:9119",
      "localhost:9119",
    ]);
    expect(allowedHosts("192.168.1.5", 80).has("192.168.1.5:80")).toBe(true);
    expect(allowedHosts("0.0.0.0", 80).has("0.0.0.0:80")).toBe(false);
  });
});

describe("html", () => {
  it("escapes text from the store and keeps its own markup", () => {
    const title = `<script>alert("x")</script>`;
    expect(html`<td>${title}</td>`.value).toBe("<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td>");
    expect(html`<ul>${["a", "<b>"].map((s) => html`<li>${s}</li>`)}</ul>`.value).toBe(
      "<ul><li>a</li><li>&lt;b&gt;</li></ul>",
    );
    expect(jsonScript("d", { t: "</script><b>" }).value).not.toContain("</script><b>");
  });
});
