// The web chat never looks dead (SPEC G1), in headless Chromium against `iris gateway run`'s code
// path and the fake LLM server: while the model is retried and then stalls, the reply's draft says
// "waiting for the model" and "retrying (1/N) …" instead of an empty bubble.
/// <reference lib="dom" />
import { type FakeLlm, type Step, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, skipWithoutChromium } from "./chromium.js";
import { addWebchatUser, runGateway, writeGatewayProfile } from "./profile.js";

const WAIT = { timeout: 60_000 };
const skip = skipWithoutChromium();

describe.skipIf(skip)("web chat status while the model stalls (Chromium)", () => {
  let fake: FakeLlm;
  let dir: TempDir;
  let browser: Browser;
  let ctx: BrowserContext | undefined;
  let stopGateway: () => void;
  let running: Promise<number>;
  let err = "";
  let token = "";

  beforeAll(async () => {
    [fake, browser] = await Promise.all([startFakeLlm(), launchChromium()]);
    // First attempt: a 503 (retried); the retry then stalls with nothing sent.
    let calls = 0;
    fake.setHandler((): Step => (++calls === 1 ? { fault: "status", status: 503 } : { fault: "stall" }));
    dir = tempDir("iris-gw-web-status");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      "    webchat: {port: 0, bot_name: iris}",
    ]);
    token = await addWebchatUser(dir.path, "ann");
    ({ stop: stopGateway, running } = runGateway(dir.path, (s) => {
      err += s;
    }));
    for (let i = 0; i < 6000 && !/web chat at /.test(err); i++) await new Promise((r) => setTimeout(r, 10));
  }, 180_000);

  afterAll(async () => {
    await ctx?.close().catch(() => {});
    await browser?.close();
    stopGateway?.();
    await running;
    await fake?.close();
    dir?.cleanup();
  }, 60_000);

  it("shows the retry and the wait in the reply's draft before any token", async () => {
    const m = /web chat at (http:\/\/\S+) /.exec(err);
    expect(m, err).not.toBeNull();
    const [, url = ""] = m ?? [];
    ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(url, WAIT);
    await page.fill("#token", token);
    await page.click("button[type=submit]");
    await page.waitForSelector("body[data-connected='1']", WAIT);
    // Every text the draft shows, as the page shows it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const t = document.querySelector(".draft")?.textContent ?? "";
        if (t && seen.at(-1) !== t) seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.fill("#text", "hello?");
    await page.press("#text", "Enter");
    await page.waitForFunction(
      () => {
        const seen = (window as unknown as { seen: string[] }).seen;
        return (
          seen.some((t) => /retrying .*\(1\/\d+\)/.test(t)) && /waiting for the model/.test(seen.at(-1) ?? "")
        );
      },
      null,
      WAIT,
    );
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.some((t) => t.includes("⏳"))).toBe(true);
    // The retry's request is sent as the wait is shown; under load it reaches the server after.
    await expect.poll(() => fake.requests.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
