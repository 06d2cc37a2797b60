// Web chat attachments reach the model (SPEC G1, H4): `iris gateway run` with the web chat, a
// logged-in POST /send carrying a PNG, and the fake LLM server finds it in the upstream request;
// a file that is not an image becomes a note, not a failed turn; and in headless Chromium, the
// page's attach button sends a picture and a text file with the message.
/// <reference lib="dom" />
import { type FakeLlm, solidPng, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, skipWithoutChromium } from "./chromium.js";
import { addWebchatUser, runGateway, writeGatewayProfile } from "./profile.js";

let fake: FakeLlm;
let dir: TempDir;
let stop: () => void;
let running: Promise<number>;
let err = "";
let url = "";
let cookie = "";
let token = "";

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "I see it." }));
  dir = tempDir("iris-gw-images");
  writeGatewayProfile(dir.path, fake, ["gateway:", "  platforms:", "    webchat: {port: 0, bot_name: iris}"]);
  token = await addWebchatUser(dir.path, "minji");
  ({ stop, running } = runGateway(dir.path, (s) => {
    err += s;
  }));
  for (let i = 0; i < 6000 && !/web chat at /.test(err); i++) await new Promise((r) => setTimeout(r, 10));
  const m = /web chat at (http:\/\/\S+) /.exec(err);
  expect(m, err).not.toBeNull();
  const [, base = ""] = m ?? [];
  url = base;
  const login = await fetch(new URL("/login", url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  expect(login.status).toBe(204);
  cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}, 120_000);

afterAll(async () => {
  stop?.();
  await running;
  await fake?.close();
  dir?.cleanup();
});

const send = (body: object) =>
  fetch(new URL("/send", url), {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 2400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
};

describe("web chat attachments", () => {
  it("an attached PNG is in the upstream request", async () => {
    const png = solidPng(7, 7).toString("base64");
    const before = fake.requests.length;
    const r = await send({
      chat: "",
      id: "msg-image-0001",
      text: "what is this?",
      images: [{ name: "a.png", data: png }],
    });
    expect(r.status).toBe(202);
    await until(() => fake.requests.length > before);
    const sent = fake.requests.at(-1);
    expect(sent?.rejected).toBeUndefined();
    expect(sent?.rawBody.toString()).toContain(`data:image/png;base64,${png}`);
  });

  it("a file that is not an image is left out with a note", async () => {
    const before = fake.requests.length;
    const data = Buffer.from("not a picture").toString("base64");
    const r = await send({
      chat: "",
      id: "msg-image-0002",
      text: "and this?",
      images: [{ name: "b.png", data }],
    });
    expect(r.status).toBe(202);
    await until(() => fake.requests.length > before);
    expect(fake.requests.at(-1)?.rawBody.toString()).toContain(
      "[attachment b.png left out: b.png is not a PNG, JPEG, GIF or WebP image]",
    );
  });
});

describe.skipIf(skipWithoutChromium())("the web chat page's attach button (Chromium)", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("sends a picture and a text file picked on the page; refuses another kind by name", async () => {
    const WAIT = { timeout: 60_000 };
    const ctx = await browser.newContext();
    const errors: string[] = [];
    const page = await ctx.newPage();
    await page.goto(url, WAIT);
    await page.fill("#token", token);
    await page.click("button[type=submit]");
    await page.waitForSelector("body[data-connected='1']", WAIT);
    // From here on the page's own script (the login page's 401 and favicon are not its doing).
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    const png = solidPng(9, 9);
    const chooser = page.waitForEvent("filechooser", WAIT);
    await page.click("#attach");
    await (await chooser).setFiles([
      { name: "red.png", mimeType: "image/png", buffer: png },
      { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("# 회의 메모\n- 월요일\n") },
      { name: "tool.exe", mimeType: "application/octet-stream", buffer: Buffer.from([0x4d, 0x5a]) },
    ]);
    await page.waitForSelector("#attachments span.refused", WAIT);
    expect(await page.textContent("#attachments")).toContain("tool.exe: not a picture or a text file");
    expect(await page.textContent("#attachments")).toContain("📎 red.png");
    const before = fake.requests.length;
    await page.fill("#text", "이 그림은 뭐야?");
    await page.press("#text", "Enter");
    await until(() => fake.requests.length > before);
    const body = fake.requests.at(-1)?.rawBody.toString() ?? "";
    expect(fake.requests.at(-1)?.rejected).toBeUndefined();
    expect(body).toContain(`data:image/png;base64,${png.toString("base64")}`);
    expect(body).toContain("이 그림은 뭐야?");
    expect(body).toContain("notes.md:");
    expect(body).toContain("# 회의 메모");
    expect(body).not.toContain("MZ");
    // Sent: the chips are gone and the bubble names the picture.
    expect(await page.locator("#attachments span").count()).toBe(0);
    await page.waitForSelector(".msg.user:not(.pending)", WAIT);
    expect(await page.locator(".msg.user").last().textContent()).toContain("📎 red.png");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});
