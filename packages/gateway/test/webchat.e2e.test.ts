// The web chat end to end (issue 19 "How it will be checked"): `iris gateway run`'s code path with
// gateway.platforms.webchat and the fake LLM server, driven in headless Chromium: a streamed
// reply with Markdown, approvals as buttons only the asker can answer, a reload that keeps the
// conversation, a wrong token refused; and identities that cannot be borrowed (SPEC G1): users
// with their own tokens never see each other's chats, a forged name is refused, and a flood of
// wrong tokens from one address does not lock out another.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readdirSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import {
  type FakeLlm,
  type RecordedRequest,
  type Step,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pairingApprove } from "../src/commands.js";
import { webchatAddUser } from "../src/platforms/webchat/commands.js";
import { launchChromium, skipWithoutChromium } from "./chromium.js";
import { DropProxy } from "./drop-proxy.js";
import {
  type ChatMessage,
  gatewayIo,
  lastMessage,
  runGateway,
  textOf,
  writeGatewayProfile,
} from "./profile.js";

const USERS = ["ann", "bob", "cat", "dan", "eve", "fay"];

/** POSTs a login from the given local (loopback) address: another client than the browser. */
function loginFrom(base: string, localAddress: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL("/login", base),
      { method: "POST", localAddress, headers: { "content-type": "application/json" } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once("error", reject);
    req.end(JSON.stringify(body));
  });
}

const WAIT = { timeout: 60_000 };
const poll = async (get: () => number, ok: (n: number) => boolean) => {
  for (let i = 0; !ok(get()); i++) {
    if (i > 2400) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
};

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("run danger"))
    return {
      text: "Let me *clean up* the scratch folder first.",
      chunkSize: 4,
      toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./scratch-dir" } }],
    };
  if (said.endsWith("markdown"))
    return {
      text: "**bold** and `code` <script>window.pwned=1</script>\n```js\nlet a = 1 < 2;\n```",
      chunkSize: 5,
    };
  return { text: `echo: ${said}`, chunkSize: 3 };
}

const skip = skipWithoutChromium();

describe.skipIf(skip)("gateway web chat (Chromium)", () => {
  let fake: FakeLlm;
  let dir: TempDir;
  let browser: Browser;
  let stopGateway: () => void;
  let running: Promise<number>;
  let err = "";
  let url = "";
  const tokens: Record<string, string> = {};
  const contexts: BrowserContext[] = [];

  async function loggedIn(name: string, path = "/", base = url): Promise<Page> {
    const ctx = await browser.newContext();
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(base, WAIT);
    await page.fill("#token", tokens[name] ?? "");
    await page.click("button[type=submit]");
    await page.waitForSelector("#send", WAIT);
    if (path !== "/") await page.goto(new URL(path, base).href, WAIT);
    await page.waitForSelector("body[data-connected='1']", WAIT);
    return page;
  }
  const say = async (page: Page, text: string) => {
    await page.fill("#text", text);
    await page.press("#text", "Enter");
  };
  const botTexts = (page: Page) => page.$$eval(".msg.bot", (els) => els.map((e) => e.textContent ?? ""));

  beforeAll(async () => {
    [fake, browser] = await Promise.all([startFakeLlm(), launchChromium()]);
    fake.setHandler(reply);
    dir = tempDir("iris-gw-web");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      "    webchat: {port: 0, bot_name: iris}",
    ]);
    for (const name of USERS) {
      let out = "";
      const io = {
        ...gatewayIo(dir.path, (s) => {
          err += s;
        }),
        out: (s: string) => {
          out += s;
        },
      };
      expect(await webchatAddUser(io, name), err).toBe(0);
      tokens[name] = /login token \(shown once; give it to \w+ only\): (\S+)/.exec(out)?.[1] ?? "";
      expect(tokens[name]).toMatch(/^irl_/);
    }
    ({ stop: stopGateway, running } = runGateway(dir.path, (s) => {
      err += s;
    }));
    for (let i = 0; i < 6000 && !/web chat at /.test(err); i++) await new Promise((r) => setTimeout(r, 10));
    const m = /web chat at (http:\/\/\S+) \(6 users;/.exec(err);
    expect(m, err).not.toBeNull();
    [, url = ""] = m ?? [];
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    stopGateway?.();
    const code = await running;
    // The tokens went to the add-user output only: no log, the store or any other file holds one.
    const files = readdirSync(dir.path, { recursive: true, encoding: "utf8" }).filter((f) =>
      statSync(join(dir.path, f)).isFile(),
    );
    expect(files.length).toBeGreaterThan(1);
    for (const f of files)
      for (const token of Object.values(tokens))
        expect(readFileSync(join(dir.path, f)).includes(token), f).toBe(false);
    await fake?.close();
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("refuses a wrong token: the login page stays, the stream and sends answer 401", async () => {
    const ctx = await browser.newContext();
    contexts.push(ctx);
    const page = await ctx.newPage();
    const first = await page.goto(url, WAIT);
    expect(first?.status()).toBe(401);
    await page.fill("#token", `${tokens.ann}x`);
    await page.click("button[type=submit]");
    await page.waitForFunction(
      () => document.getElementById("error")?.textContent === "wrong token",
      null,
      WAIT,
    );
    expect(await page.$("#send")).toBeNull();
    const status = await page.evaluate(async () => [
      (await fetch("/events")).status,
      (await fetch("/send", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))
        .status,
    ]);
    expect(status).toEqual([401, 401]);
    expect(fake.requests).toHaveLength(0);
  }, 120_000);

  it("streams a reply and renders its Markdown safely", async () => {
    const page = await loggedIn("ann");
    expect(page.url()).not.toContain(tokens.ann);
    await say(page, "show markdown");
    await page.waitForSelector(".msg.bot strong", WAIT);
    const html = await page.$eval(".msg.bot", (e) => e.innerHTML);
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain('<pre><code class="language-js">let a = 1 &lt; 2;</code></pre>');
    expect(html).toContain("&lt;script&gt;");
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.$(".msg.draft")).toBeNull();
    // A message the gateway refuses for what it is says so, instead of being retried forever.
    const asked = fake.requests.length;
    await say(page, "x".repeat(32_001));
    await page.waitForFunction(() => document.body.textContent?.includes("(not sent: text:"), null, WAIT);
    expect(fake.requests.length).toBe(asked);
  }, 120_000);

  it("shows the text being written while the turn waits, and answers an approval with a button", async () => {
    const page = await loggedIn("ann");
    await say(page, "run danger");
    // Step one's text was streamed as a draft; the turn now waits for the approval.
    const draft = await page.waitForSelector(".msg.draft em", WAIT);
    expect(await draft.textContent()).toBe("clean up");
    await page.waitForSelector(".msg.bot .buttons button", WAIT);
    expect((await botTexts(page)).at(-1)).toContain("rm -rf ./scratch-dir");
    await page.click(".buttons button:text-is('Approve')");
    await page.waitForFunction(
      () => [...document.querySelectorAll(".msg.bot")].some((e) => e.textContent?.startsWith("done:")),
      null,
      WAIT,
    );
    const texts = await botTexts(page);
    expect(texts).toContain("approved (once)");
    // Tool progress: one status line, edited in place.
    expect(await page.$$eval(".msg.status", (els) => els.map((e) => e.textContent))).toEqual([
      "⚙ terminal: rm -rf ./scratch-dir",
    ]);
    expect(await page.$(".msg.draft")).toBeNull();
  }, 120_000);

  it("keeps the conversation over a reload (history from the store)", async () => {
    const page = await loggedIn("cat");
    await say(page, "remember the lighthouse");
    await page.waitForFunction(
      () => document.body.textContent?.includes("echo: remember the lighthouse"),
      null,
      WAIT,
    );
    await page.reload(WAIT);
    await page.waitForSelector("body[data-connected='1']", WAIT);
    const user = await page.$$eval(".msg.user", (els) => els.map((e) => e.textContent));
    expect(user).toEqual(["remember the lighthouse"]);
    expect(await botTexts(page)).toEqual(["echo: remember the lighthouse"]);
    // The next turn continues the same session.
    await say(page, "and again");
    await page.waitForFunction(() => document.body.textContent?.includes("echo: and again"), null, WAIT);
    const body = fake.requests.at(-1)?.body as { messages: ChatMessage[] };
    expect(body.messages.filter((m) => m.role === "user").map(textOf)).toEqual([
      "remember the lighthouse",
      "and again",
    ]);
  }, 120_000);

  it("in a room, answers when mentioned and lets only the asker answer its approval", async () => {
    const [dan, eve] = await Promise.all([loggedIn("dan", "/?room=lab"), loggedIn("eve", "/?room=lab")]);
    const before = fake.requests.length;
    await say(eve, "just chatting");
    await say(dan, "iris: run danger");
    await eve.waitForSelector(".msg.bot .buttons button", WAIT);
    await dan.waitForSelector(".msg.bot .buttons button", WAIT);
    expect(fake.requests.length - before).toBe(1); // the unmentioned line reached no model
    await eve.click(".buttons button:text-is('Approve')");
    await eve.waitForFunction(
      () => document.body.textContent?.includes("only the person who asked may answer this approval"),
      null,
      WAIT,
    );
    await dan.click(".buttons button:text-is('Approve')");
    await dan.waitForFunction(
      () => [...document.querySelectorAll(".msg.bot")].some((e) => e.textContent?.startsWith("done:")),
      null,
      WAIT,
    );
  }, 120_000);

  it("sends a message typed while the connection is down once, when it is back", async () => {
    const proxy = await DropProxy.start(Number(new URL(url).port));
    try {
      const page = await loggedIn("fay", "/", `http://127.0.0.1:${proxy.port}/`);
      proxy.drop();
      await page.waitForSelector("body[data-connected='']", WAIT);
      await say(page, "typed while offline");
      await page.waitForSelector(".msg.user.pending", WAIT);
      // Let the page's first send fail before the connection comes back.
      await poll(
        () => proxy.refused,
        (n) => n >= 2,
      );
      proxy.restore();
      await page.waitForFunction(
        () => document.body.textContent?.includes("echo: typed while offline"),
        null,
        WAIT,
      );
      const asked = fake.requests.filter((r) =>
        JSON.stringify(r.body).includes("typed while offline"),
      ).length;
      expect(asked).toBe(1);
      expect(await page.$$eval(".msg.user", (els) => els.map((e) => e.textContent))).toEqual([
        "typed while offline",
      ]);
      expect(await botTexts(page)).toEqual(["echo: typed while offline"]);
      expect(await page.$(".msg.user.pending")).toBeNull();
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("gives two users with their own tokens their own chats: neither sees the other's", async () => {
    const ann = await loggedIn("ann");
    await say(ann, "the vault code is 4711");
    await ann.waitForFunction(
      () => document.body.textContent?.includes("echo: the vault code is 4711"),
      null,
      WAIT,
    );
    const bob = await loggedIn("bob");
    expect(await bob.textContent("#who")).toBe("bob");
    await say(bob, "what did ann say?");
    await bob.waitForFunction(
      () => document.body.textContent?.includes("echo: what did ann say?"),
      null,
      WAIT,
    );
    // Bob's page, his history and his model request hold nothing of ann's chat.
    expect(await bob.textContent("body")).not.toContain("4711");
    const body = fake.requests.at(-1)?.body as { messages: ChatMessage[] };
    expect(JSON.stringify(body.messages)).not.toContain("4711");
    // No parameter reaches another user's direct chat: a chat is '' (one's own) or a '#room'.
    const tries = await bob.evaluate(async () => {
      const stream = await fetch("/events?chat=ann");
      const send = await fetch("/send", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chat: "ann", id: "forged-0001", text: "hi" }),
      });
      return [stream.status, send.status];
    });
    expect(tries).toEqual([400, 400]);
    await ann.reload(WAIT);
    await ann.waitForSelector("body[data-connected='1']", WAIT);
    expect(await ann.textContent("body")).not.toContain("what did ann say");
  }, 120_000);

  it("refuses a forged name: at login, and in a cookie", async () => {
    const bob = await loggedIn("bob");
    const forged = await bob.evaluate(async (token) => {
      const res = await fetch("/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, name: "ann" }),
      });
      return { status: res.status, error: ((await res.json()) as { error: string }).error };
    }, tokens.bob);
    expect(forged.status).toBe(403);
    expect(forged.error).toContain("comes from its token");
    expect(await bob.evaluate(async () => (await (await fetch("/me")).json()) as unknown)).toEqual({
      user: "bob",
    });
    // The cookie with ann's name put in: nobody.
    const ctx = bob.context();
    const [cookie] = await ctx.cookies();
    expect(cookie?.value).toMatch(/^bob\./);
    await ctx.addCookies([
      { ...(cookie as NonNullable<typeof cookie>), value: cookie?.value.replace(/^bob\./, "ann.") ?? "" },
    ]);
    expect(await bob.evaluate(async () => (await fetch("/me")).status)).toBe(401);
  }, 120_000);

  it("limits wrong tokens per address: a flood from 127.0.0.2 does not lock out the browser", async () => {
    const flood: number[] = [];
    for (let i = 0; i < 12; i++) flood.push(await loginFrom(url, "127.0.0.2", { token: `irl_guess${i}` }));
    expect(flood.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(flood.slice(10)).toEqual([429, 429]);
    // The flooding address is locked out even with a right token; the browser's is not.
    expect(await loginFrom(url, "127.0.0.2", { token: tokens.cat })).toBe(429);
    const cat = await loggedIn("cat");
    expect(await cat.textContent("#who")).toBe("cat");
  }, 120_000);

  it("lets a visitor ask for access: a pairing code the owner approves becomes their own login", async () => {
    const ctx = await browser.newContext();
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(url, WAIT);
    // A name that has a user already cannot be asked for.
    await page.fill("#pair-name", "ann");
    await page.click("#pair button[type=submit]");
    await page.waitForFunction(
      () => document.getElementById("pair-error")?.textContent?.includes("is taken"),
      null,
      WAIT,
    );
    await page.fill("#pair-name", "gus");
    await page.click("#pair button[type=submit]");
    const shown = await page.waitForSelector("#pair-code:not([hidden])", WAIT);
    const code = /pairing code is ([A-Z0-9]{8})/.exec((await shown.textContent()) ?? "")?.[1] ?? "";
    expect(code).not.toBe("");
    expect(await page.evaluate(async () => (await fetch("/me")).status)).toBe(401);
    expect(
      await pairingApprove(
        gatewayIo(dir.path, () => {}),
        code,
      ),
    ).toBe(0);
    const token = await page.waitForSelector("#pair-done:not([hidden]) #new-token", WAIT);
    tokens.gus = (await token.textContent()) ?? "";
    expect(tokens.gus).toMatch(/^irl_/);
    await page.click("#continue");
    await page.waitForSelector("body[data-connected='1']", WAIT);
    expect(await page.textContent("#who")).toBe("gus");
    await say(page, "hello from gus");
    await page.waitForFunction(() => document.body.textContent?.includes("echo: hello from gus"), null, WAIT);
    // The approval was turned into the login once; the token shown logs in elsewhere too.
    expect(await page.evaluate(async () => (await fetch("/pair/claim", { method: "POST" })).status)).toBe(
      401,
    );
    const elsewhere = await loggedIn("gus");
    expect(await elsewhere.textContent("#who")).toBe("gus");
  }, 120_000);
});
