// One Chromium per process, launched on the first browser call behind the guard proxy, and one
// browser context per session (SPEC T): closed with the session's scope or after the idle
// timeout. A browser that crashed or was closed is launched again on the next call.
import type { Browser, BrowserContext, Dialog, Page } from "playwright-core";
import type { ToolEnvironment } from "../environment.js";
import { proxyFor } from "../web/proxy-env.js";
import type { Workspace } from "../workspace/types.js";
import { findChromium } from "./find-chromium.js";
import { type GuardProxy, startGuardProxy } from "./guard-proxy.js";

export interface BrowserSession {
  context: BrowserContext;
  pages: Page[];
  current: number;
  console: WeakMap<Page, string[]>;
  dialog?: { page: Page; dialog: Dialog };
  /** Called when a dialog opens (an action that opened one stops waiting for itself). */
  dialogListeners: Set<() => void>;
  touch(): void;
  close(): Promise<void>;
}

const LAUNCH_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Loopback goes through the proxy too (Chromium bypasses it for localhost by default).
  "--proxy-bypass-list=<-loopback>",
];

class BrowserPool {
  private browser: Promise<{ browser: Browser; proxy: GuardProxy }> | undefined;
  readonly sessions = new WeakMap<Workspace, Promise<BrowserSession>>();

  constructor(private readonly env: ToolEnvironment) {}

  private launch(): Promise<{ browser: Browser; proxy: GuardProxy }> {
    if (!this.browser) {
      const started = (async () => {
        const executablePath = findChromium(
          this.env.browser.executable,
          this.env.env("PATH") ?? process.env.PATH,
        );
        const { chromium } = await import("playwright-core");
        // The guard chains to the profile's own HTTPS_PROXY/HTTP_PROXY (NO_PROXY honoured).
        const proxy = await startGuardProxy(this.env.web.policy, undefined, (url) =>
          proxyFor(url, (name) => this.env.env(name)),
        );
        try {
          const browser = await chromium.launch({
            executablePath,
            headless: this.env.browser.headless,
            args: [...LAUNCH_ARGS, `--proxy-server=${proxy.url}`],
            timeout: 30_000,
          });
          browser.on("disconnected", () => {
            if (this.browser === started) this.browser = undefined;
            void proxy.close();
          });
          return { browser, proxy };
        } catch (err) {
          await proxy.close();
          throw err;
        }
      })();
      this.browser = started;
      started.catch(() => {
        if (this.browser === started) this.browser = undefined;
      });
    }
    return this.browser;
  }

  proxyRefusals(): Promise<string[]> {
    return this.browser ? this.browser.then((b) => b.proxy.refused) : Promise.resolve([]);
  }

  async session(scope: Workspace): Promise<BrowserSession> {
    const key = scope;
    const existing = this.sessions.get(key);
    if (existing) {
      const s = await existing.catch(() => undefined);
      if (s?.context.browser()?.isConnected()) {
        s.touch();
        return s;
      }
      this.sessions.delete(key);
    }
    const created = this.open(key);
    this.sessions.set(key, created);
    created.catch(() => this.sessions.delete(key));
    return created;
  }

  private async open(scope: Workspace): Promise<BrowserSession> {
    const { browser } = await this.launch();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    context.setDefaultTimeout(this.env.browser.actionTimeoutSeconds * 1000);
    context.setDefaultNavigationTimeout(30_000);
    let timer: NodeJS.Timeout | undefined;
    const session: BrowserSession = {
      context,
      pages: [],
      current: 0,
      console: new WeakMap(),
      dialogListeners: new Set(),
      touch: () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void session.close(), this.env.browser.idleSeconds * 1000);
        timer.unref();
      },
      close: async () => {
        if (timer) clearTimeout(timer);
        scope.cleanups.delete(session.close);
        if (this.sessions.get(scope)) this.sessions.delete(scope);
        await context.close().catch(() => undefined);
      },
    };
    context.on("page", (page) => watchPage(session, page));
    scope.cleanups.add(session.close);
    const page = await context.newPage();
    session.current = session.pages.indexOf(page);
    session.touch();
    return session;
  }

  async closeAll(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (b) await b.then((x) => x.browser.close()).catch(() => undefined);
  }
}

function watchPage(session: BrowserSession, page: Page): void {
  session.pages.push(page);
  const lines: string[] = [];
  session.console.set(page, lines);
  page.on("console", (m) => {
    lines.push(`[${m.type()}] ${m.text()}`);
    if (lines.length > 200) lines.shift();
  });
  page.on("pageerror", (e) => lines.push(`[pageerror] ${e.message}`));
  page.on("dialog", (dialog) => {
    session.dialog = { page, dialog };
    for (const l of session.dialogListeners) l();
  });
  page.on("close", () => {
    const i = session.pages.indexOf(page);
    if (i >= 0) session.pages.splice(i, 1);
    if (session.current >= session.pages.length) session.current = Math.max(0, session.pages.length - 1);
  });
}

const pools = new WeakMap<ToolEnvironment, BrowserPool>();

export function browserPool(env: ToolEnvironment): BrowserPool {
  let pool = pools.get(env);
  if (!pool) {
    pool = new BrowserPool(env);
    pools.set(env, pool);
  }
  return pool;
}

export type { BrowserPool };

/** Closes the process's Chromium, if one was started for this environment (process close). */
export async function closeBrowsers(env: ToolEnvironment): Promise<void> {
  await pools.get(env)?.closeAll();
}
