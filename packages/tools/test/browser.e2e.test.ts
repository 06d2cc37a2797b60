// The browser toolset on Debian's Chromium (headless, via playwright-core) through the real
// dispatcher: a form filled by refs (Korean labels too), a late-rendered button that opens an
// alert answered with browser_dialog, a submit; a stale ref failing fast; private addresses
// refused (also through a redirect); a screenshot returned as a PNG image; console messages; the
// context closed with its session scope; a browser that went away started again on the next call;
// the guard chained to the profile's HTTP_PROXY.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestSite, type TestSite } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../src/browser/find-chromium.js";
import { browserPool } from "../src/browser/pool.js";
import { localWorkspace } from "../src/workspace/local.js";
import { webTools } from "./web-tools.js";

function chromiumMissing(): boolean {
  try {
    findChromium(undefined, process.env.PATH);
    return false;
  } catch (err) {
    if (process.env.CI === "true") throw err;
    return true;
  }
}

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(() => site.close());

const refOf = (snapshot: string, pattern: RegExp): string => {
  const line = snapshot.split("\n").find((l) => pattern.test(l));
  const ref = line ? /\[ref=(\w+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`no ${pattern} in:\n${snapshot}`);
  return ref;
};

describe.skipIf(chromiumMissing())("browser tools", () => {
  const scope = localWorkspace();
  const tools = () =>
    webTools(
      {
        env: { PATH: process.env.PATH },
        web: { policy: { allowPrivate: false, allowHosts: [new URL(site.baseUrl).host] } },
      },
      scope,
    );
  let t: Awaited<ReturnType<typeof tools>>;
  beforeAll(async () => {
    t = await tools();
  });
  afterAll(async () => {
    await scope.close();
    await browserPool(t.environment).closeAll();
  });

  it("fills a form by refs, clicks a late button, accepts its alert and submits", async () => {
    const nav = await t.call("browser_navigate", { url: site.url("/form") });
    expect(nav.isError).toBe(false);
    expect(nav.content).toContain("Page: 가입 양식");
    const snap = nav.content;
    await t.call("browser_type", { ref: refOf(snap, /textbox "Email"/), text: "minji@example.org" });
    await t.call("browser_type", { ref: refOf(snap, /textbox "비밀번호"/), text: "비밀 123" });
    await t.call("browser_click", { ref: refOf(snap, /checkbox "약관에 동의합니다"/) });
    const sel = await t.call("browser_select", { ref: refOf(snap, /combobox "언어"/), values: ["한국어"] });
    expect(sel.content).toContain("Selected ko");
    let later = "";
    for (let i = 0; i < 50 && !later.includes("Late button"); i++)
      later = (await t.call("browser_snapshot", {})).content;
    const late = await t.call("browser_click", { ref: refOf(later, /button "Late button"/) });
    expect(late.content).toContain('A alert dialog is open: "late clicked"');
    const answered = await t.call("browser_dialog", { accept: true });
    expect(answered.content).toBe('Accepted the alert "late clicked".');
    const submit = await t.call("browser_click", { ref: refOf(later, /button "가입하기"/) });
    expect(submit.content).toContain("Page: Sent");
    const done = await t.call("browser_snapshot", {});
    expect(done.content).toContain("email=minji@example.org");
    expect(done.content).toContain("terms=yes");
    expect(done.content).toContain("lang=ko");
    const consoleOut = await t.call("browser_console", { clear: true });
    expect(consoleOut.content).toContain("[log] form ready");
    expect((await t.call("browser_console", {})).content).toBe("No console messages.");
  });

  it("a ref from before a navigation fails fast with 'take a new snapshot'", async () => {
    const first = await t.call("browser_navigate", { url: site.url("/form") });
    const ref = refOf(first.content, /textbox "Email"/);
    expect((await t.call("browser_console", {})).content).toContain("[log] form ready");
    await t.call("browser_navigate", { url: site.url("/docs/streams") });
    const stale = await t.call("browser_click", { ref });
    expect(stale.isError).toBe(true);
    expect(stale.content).toContain(`ref ${ref} is not on the page (stale or unknown): take a new snapshot`);
  });

  it("refuses a private address, also behind a redirect, and a host not allowed", async () => {
    const redirected = await t.call("browser_navigate", { url: site.url("/to-internal") });
    expect(redirected.isError).toBe(true);
    expect(redirected.content).toContain(`refused ${site.internal.baseUrl}/latest/meta-data/`);
    expect(site.internal.hits).toEqual([]);
    const other = await t.call("browser_navigate", { url: `${site.internal.baseUrl}/` });
    expect(other.content).toContain("is loopback");
    expect(site.internal.hits).toEqual([]);
  });

  it("returns a screenshot as a PNG image", async () => {
    await t.call("browser_navigate", { url: site.url("/news/seoul-weather") });
    const shot = await t.call("browser_screenshot", {});
    expect(shot.content).toContain("Screenshot of Page: 서울 날씨");
    const image = shot.images?.[0];
    expect(image?.mediaType).toBe("image/png");
    expect(
      Buffer.from(image?.data ?? "", "base64")
        .subarray(1, 4)
        .toString("latin1"),
    ).toBe("PNG");
  });

  it("starts the browser again after it went away, and a closed session gets a fresh context", async () => {
    const pool = browserPool(t.environment);
    const before = await pool.session(scope);
    await before.context.browser()?.close(); // as if it crashed
    const again = await t.call("browser_navigate", { url: site.url("/docs/streams") });
    expect(again.isError).toBe(false);
    expect(again.content).toContain("Node streams guide");
    const live = await pool.session(scope);
    expect(live).not.toBe(before);
    await scope.close();
    const reopened = await pool.session(scope);
    expect(reopened).not.toBe(live);
    expect(reopened.pages.map((p) => p.url())).toEqual(["about:blank"]);
  });
});

describe.skipIf(chromiumMissing())("browser tools behind the profile's HTTP_PROXY", () => {
  const scope = localWorkspace();
  let upstream: Server;
  const proxied: string[] = [];
  let t: Awaited<ReturnType<typeof webTools>>;
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      proxied.push(req.url ?? "");
      const up = request(new URL(req.url ?? ""), { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const proxyUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    t = await webTools(
      {
        env: { PATH: process.env.PATH, HTTP_PROXY: proxyUrl },
        web: { policy: { allowPrivate: false, allowHosts: [new URL(site.baseUrl).host] } },
      },
      scope,
    );
  });
  afterAll(async () => {
    await scope.close();
    await browserPool(t.environment).closeAll();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  it("Chromium's requests pass the guard, then the upstream proxy; a refused one reaches neither", async () => {
    const nav = await t.call("browser_navigate", { url: site.url("/news/seoul-weather") });
    expect(nav.isError).toBe(false);
    expect(nav.content).toContain("서울 날씨");
    expect(proxied).toContain(site.url("/news/seoul-weather"));
    // The page opened is kept for the local search backend, as web_extract's pages are.
    expect((await t.environment.pages.search("서울 날씨", 5)).map((r) => r.url)).toContain(
      site.url("/news/seoul-weather"),
    );
    const count = proxied.length;
    const refused = await t.call("browser_navigate", { url: site.url("/to-internal") });
    expect(refused.isError).toBe(true);
    expect(site.internal.hits).toEqual([]);
    expect(proxied.slice(count).some((u) => u.includes(new URL(site.internal.baseUrl).host))).toBe(false);
  });
});
