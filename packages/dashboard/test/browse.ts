// A logged-in headless Chromium on a running dashboard, for the end-to-end tests: pages opened
// once the app says it is ready, every console error kept for the test to check.
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./chromium.js";

const WAIT = { timeout: 60_000 };

export interface Browsing {
  openPage(path: string): Promise<Page>;
  /** "path: message" of each console error or uncaught page error seen. */
  readonly consoleErrors: string[];
  close(): Promise<void>;
}

/** Logs in at `url` with `token` through the login form; throws if the token shows in a URL. */
export async function logIn(url: string, token: string): Promise<Browsing> {
  const browser: Browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const login = await context.newPage();
    await login.goto(`${url}/login`);
    await login.fill("input[name=token]", token);
    await Promise.all([login.waitForURL(`${url}/`), login.click("button")]);
    if (login.url() !== `${url}/`) throw new Error(`login ended at ${login.url()}`);
    await login.close();
    const consoleErrors: string[] = [];
    return {
      consoleErrors,
      async openPage(path) {
        const page = await context.newPage();
        page.on("console", (m) => {
          if (m.type() === "error") consoleErrors.push(`${path}: ${m.text()}`);
        });
        page.on("pageerror", (e) => consoleErrors.push(`${path}: ${e.message}`));
        await page.goto(`${url}${path}`);
        await page.waitForSelector("body[data-ready='1']", WAIT);
        return page;
      },
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}
