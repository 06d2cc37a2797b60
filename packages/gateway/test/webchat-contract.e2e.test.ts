// The adapter contract for the web chat: the peer is a real Chromium page logged in as "peer"
// (its direct chat, and the room "#room" in a second page), connected through a DropProxy, which
// drops its connections for the reconnect test (the page's own reconnect, backing off).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { join } from "node:path";
import { openStore, type Store } from "@iris/host";
import { type TempDir, tempDir } from "@iris/testkit";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe } from "vitest";
import { WebchatAdapter } from "../src/platforms/webchat/adapter.js";
import { WebchatUsers } from "../src/platforms/webchat/users.js";
import { openGatewayTables } from "../src/state/index.js";
import { launchChromium, skipWithoutChromium } from "./chromium.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const skip = skipWithoutChromium();
const WAIT = { timeout: 60_000 };

describe.skipIf(skip)("web chat adapter contract (Chromium)", () => {
  let browser: Browser;
  let ctx: BrowserContext | undefined;
  let proxy: DropProxy | undefined;
  let dir: TempDir;
  let store: Store;
  let token = "";
  let users: WebchatUsers;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = tempDir("iris-webchat-contract");
    store = openStore(join(dir.path, "state.db"));
    users = new WebchatUsers((await openGatewayTables(store)).identities);
    token = (await users.issue("peer")).token;
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await browser?.close();
    await proxy?.close();
    await store?.close();
    dir?.cleanup();
  });

  adapterContract(async () => {
    const adapter = new WebchatAdapter({ host: "127.0.0.1", port: 0, botName: "iris", users });
    let dmPage: Page;
    let roomPage: Page;
    const say = async (page: Page, text: string) => {
      await page.fill("#text", text);
      await page.press("#text", "Enter");
    };
    return {
      adapter,
      proxy: () => {
        if (!proxy) throw new Error("not started");
        return proxy;
      },
      afterStart: async () => {
        proxy = await DropProxy.start(Number(new URL(adapter.url).port));
        const base = `http://127.0.0.1:${proxy.port}/`;
        ctx = await browser.newContext();
        dmPage = await ctx.newPage();
        await dmPage.goto(base, WAIT);
        await dmPage.fill("#token", token);
        await dmPage.click("button[type=submit]");
        await dmPage.waitForSelector("body[data-connected='1']", WAIT);
        roomPage = await ctx.newPage();
        await roomPage.goto(`${base}?room=room`, WAIT);
        await roomPage.waitForSelector("body[data-connected='1']", WAIT);
      },
      peerId: "peer",
      group: "#room",
      peerSendsDm: (t) => say(dmPage, t),
      peerSendsGroup: (t) => say(roomPage, t),
      peerRedeliversDm: () =>
        dmPage.evaluate(async () => {
          // What the page's outbox does after a lost response: the same id again.
          const last = [...document.querySelectorAll<HTMLElement>(".msg.user[data-id]")].at(-1);
          const body = JSON.stringify({ chat: "", id: last?.dataset.id, text: last?.textContent });
          await fetch("/send", { method: "POST", headers: { "content-type": "application/json" }, body });
        }),
      peerReceived: () =>
        dmPage.$$eval(".msg.bot", (els) =>
          els.flatMap((e) =>
            ((e as HTMLElement).dataset.text ?? "").split("\n").filter((l: string) => l !== ""),
          ),
        ),
      peerReconnected: async () => {
        await dmPage.waitForSelector("body[data-connected='1']", WAIT);
      },
    };
  });
});
