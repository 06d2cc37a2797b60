// busy_policy: interrupt in the web chat (SPEC G4, L7), in headless Chromium against
// `iris gateway run`'s code path and the fake LLM server: a second message while an answer
// streams stops that answer, but what was shown stays in the chat, marked interrupted, and in
// the history (a reload shows it from the store, the next model call is sent it); the second
// message gets its own answer.
/// <reference lib="dom" />
import { type FakeLlm, type Step, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, skipWithoutChromium } from "./chromium.js";
import { addWebchatUser, runGateway, writeGatewayProfile } from "./profile.js";

const WAIT = { timeout: 60_000 };
const PARTIAL = "The first part of a long answer about tides, which goes on";
const skip = skipWithoutChromium();

describe.skipIf(skip)("web chat: an interrupted answer stays visible (Chromium)", () => {
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
    // The first answer streams a few words and then stalls until it is interrupted.
    let calls = 0;
    fake.setHandler(
      (): Step =>
        ++calls === 1
          ? { fault: "stall", reply: { text: `${PARTIAL} and on for a long time.` }, afterEvents: 6 }
          : { text: "Here is the answer to the second question." },
    );
    dir = tempDir("iris-gw-web-interrupt");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  busy_policy: interrupt",
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

  it("keeps the streamed text marked interrupted, in the page and in the history", async () => {
    const m = /web chat at (http:\/\/\S+) /.exec(err);
    expect(m, err).not.toBeNull();
    const [, url = ""] = m ?? [];
    ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(url, WAIT);
    await page.fill("#token", token);
    await page.click("button[type=submit]");
    await page.waitForSelector("body[data-connected='1']", WAIT);
    await page.fill("#text", "tell me about tides");
    await page.press("#text", "Enter");
    // The answer streams into the draft, then stalls.
    await page.waitForFunction(
      () => /first part/.test(document.querySelector(".draft")?.textContent ?? ""),
      null,
      WAIT,
    );
    const shown = (await page.textContent(".draft")) ?? "";
    await page.fill("#text", "and about waves?");
    await page.press("#text", "Enter");
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll(".msg.bot")].some((e) => /second question/.test(e.textContent ?? "")),
      null,
      WAIT,
    );
    const bots = await page.$$eval(".msg.bot", (els) => els.map((e) => e.textContent ?? ""));
    // The interrupted answer is still there, as shown, marked, before the second answer.
    expect(bots).toHaveLength(2);
    expect(bots[0]).toContain(shown.trim());
    expect(bots[0]).toContain("(interrupted)");
    expect(bots[0]).not.toContain("No answer");
    expect(bots[1]).toContain("second question");
    expect(await page.$(".draft")).toBeNull();
    // The second model call was sent the kept text: it is in the stored history.
    const second = JSON.stringify(fake.requests[1]?.body);
    expect(second).toContain(shown.trim());
    expect(second).toContain("(interrupted)");
    expect(second).not.toContain("No answer");
    // A reload shows the conversation from the store: the kept answer is there too.
    await page.reload(WAIT);
    await page.waitForSelector("body[data-connected='1']", WAIT);
    await page.waitForFunction(() => document.querySelectorAll(".msg.bot").length >= 2, null, WAIT);
    const again = await page.$$eval(".msg.bot", (els) => els.map((e) => e.textContent ?? ""));
    expect(again.some((t) => t.includes(shown.trim()) && t.includes("(interrupted)"))).toBe(true);
  }, 120_000);
});
