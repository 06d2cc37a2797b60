// The browser tools' common frame: the session's context and current page, errors the model can
// act on (a stale ref says "take a new snapshot"; a crashed browser is started again next call),
// and a note when a dialog is waiting for browser_dialog.
import type { Locator, Page } from "playwright-core";
import { z } from "zod";
import type { ToolContext, ToolResultValue } from "../define.js";
import { EMPTY_TOOL_ENVIRONMENT } from "../environment.js";
import { ChromiumMissingError, findChromium } from "./find-chromium.js";
import { type BrowserSession, browserPool } from "./pool.js";

export const refParam = z
  .string()
  .regex(/^[a-z]*\d*[a-z]\d+$/i, "a ref from browser_snapshot, like e5")
  .describe("element ref from the latest browser_snapshot, e.g. e5");

export class StaleRefError extends Error {
  constructor(ref: string) {
    super(`ref ${ref} is not on the page (stale or unknown): take a new snapshot with browser_snapshot`);
    this.name = "StaleRefError";
  }
}

export interface BrowserCall {
  session: BrowserSession;
  page: Page;
  timeoutMs: number;
  /** The element of a snapshot ref; a missing one fails fast with StaleRefError. */
  ref(ref: string): Promise<Locator>;
}

export async function withBrowser(
  ctx: ToolContext,
  fn: (call: BrowserCall) => Promise<ToolResultValue>,
): Promise<ToolResultValue> {
  const env = ctx.environment ?? EMPTY_TOOL_ENVIRONMENT;
  const pool = browserPool(env);
  const timeoutMs = env.browser.actionTimeoutSeconds * 1000;
  try {
    const session = await pool.session(ctx.workspace);
    let page = session.pages[session.current];
    if (!page || page.isClosed()) {
      page = await session.context.newPage();
      session.current = session.pages.indexOf(page);
    }
    const current = page;
    const call: BrowserCall = {
      session,
      page: current,
      timeoutMs,
      ref: async (ref) => {
        const locator = current.locator(`aria-ref=${ref}`);
        // Refs are only valid for the snapshot they came from: an unknown one fails at once.
        const count = await locator.count().catch(() => 0);
        if (count === 0) throw new StaleRefError(ref);
        return locator;
      },
    };
    // A click that opens an alert does not finish until the alert is answered: a dialog that
    // opens during the action ends the wait (the action itself has happened).
    let onDialog: (() => void) | undefined;
    const dialogOpened = new Promise<ToolResultValue>((resolve) => {
      onDialog = () => resolve("The action opened a dialog.");
      session.dialogListeners.add(onDialog);
    });
    const action = fn(call);
    action.catch(() => undefined);
    try {
      const result = session.dialog ? await action : await Promise.race([action, dialogOpened]);
      return withDialogNote(session, result);
    } finally {
      if (onDialog) session.dialogListeners.delete(onDialog);
    }
  } catch (err) {
    return { content: `Error: ${await describe(err, pool)}`, isError: true };
  }
}

async function describe(err: unknown, pool: ReturnType<typeof browserPool>): Promise<string> {
  if (err instanceof StaleRefError || err instanceof ChromiumMissingError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  if (
    /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected/i.test(
      message,
    )
  ) {
    await pool.closeAll();
    return "the browser crashed or was closed; it starts again on the next browser call (the open pages are lost)";
  }
  if (/Timeout \d+ms exceeded/.test(message))
    return `${message.split("\n")[0]} (the element may be hidden or covered; take a new snapshot)`;
  return message.split("\n")[0] ?? message;
}

function withDialogNote(session: BrowserSession, result: ToolResultValue): ToolResultValue {
  const d = session.dialog;
  if (!d) return result;
  const note = `\nA ${d.dialog.type()} dialog is open: ${JSON.stringify(d.dialog.message())}. Answer it with browser_dialog.`;
  return typeof result === "string" ? result + note : { ...result, content: result.content + note };
}

/** Title and URL of the page, for every action's answer. */
export async function pageLine(page: Page): Promise<string> {
  const title = await page.title().catch(() => "");
  return `Page: ${title || "(untitled)"} — ${page.url()}`;
}

/** The ref-annotated accessibility tree; compact drops unnamed wrapper lines. */
export async function snapshotText(page: Page, full = false, maxChars = 30_000): Promise<string> {
  const yaml = await page.ariaSnapshot({ mode: "ai" });
  const lines = full
    ? yaml.split("\n")
    : yaml.split("\n").filter((l) => !/^\s*- generic \[ref=\w+\]:?$/.test(l));
  const text = lines.join("\n");
  return text.length > maxChars
    ? `${text.slice(0, maxChars)}\n… (cut at ${maxChars} characters; use full: false or scroll)`
    : text;
}

export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("domcontentloaded", { timeout: 5_000 }).catch(() => undefined);
}

/** The browser tools are offered only where a Chromium is found; otherwise `iris tools` says what to install. */
export function browserAvailable(env: import("../environment.js").ToolEnvironment): true | string {
  if (!env.browser.enabled) return "off (set browser.enabled: true in config.yaml)";
  try {
    findChromium(env.browser.executable, env.env("PATH") ?? process.env.PATH);
    return true;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
