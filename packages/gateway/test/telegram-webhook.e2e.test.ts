// Telegram in webhook mode end to end: `iris gateway run`'s code path with grammY's webhook
// listener inside the adapter; the fake Bot API POSTs updates to it (as Telegram does, through a
// proxy in real life) with the secret token. Updates that came while the gateway was down are
// delivered once it is back (Telegram retries); getUpdates is never called.
import { createServer } from "node:net";
import { type FakeLlm, FakeTelegram, type RecordedRequest, type Step, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eGateway, until } from "./e2e-gateway.js";
import { lastMessage } from "./profile.js";

const TOKEN = "4343:webhook-secret-part";
const MIN = { id: 601, first_name: "Min", username: "min" };
const dm = { id: MIN.id, type: "private" as const };

const reply = (req: RecordedRequest): Step => ({ text: `echo: ${lastMessage(req).said}` });

/** A port free now (the webhook's URL must name it before the gateway listens). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe("gateway over Telegram in webhook mode (fake Bot API)", () => {
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let gw: E2eGateway;
  let hook = "";
  const texts = () =>
    tg
      .messages(MIN.id)
      .filter((m) => !m.deleted)
      .map((m) => m.texts.at(-1) ?? "");
  const answered = (text: string) => until(texts, (t) => t.includes(text), `"${text}" in the chat`);

  beforeAll(async () => {
    [tg, fake] = await Promise.all([
      FakeTelegram.start({ token: TOKEN, webhookRetryMs: 200 }),
      startFakeLlm(),
    ]);
    fake.setHandler(reply);
    const port = await freePort();
    hook = `http://127.0.0.1:${port}/telegram-hook`;
    gw = await E2eGateway.start("iris-gw-tg-webhook", fake, `TELEGRAM_BOT_TOKEN=${TOKEN}\n`, [
      "gateway:",
      "  platforms:",
      `    telegram: {api_root: "${tg.apiRoot}", allowed_users: ["@min"], webhook: {url: "${hook}", listen_port: ${port}}}`,
    ]);
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([tg?.close(), fake?.close()]);
    expect(code, gw?.err).toBe(0);
    expect(gw?.err).not.toContain("webhook-secret-part");
  }, 60_000);

  it("sets the webhook and answers what Telegram posts to it, never polling", async () => {
    expect(tg.webhook.url).toBe(hook);
    expect(gw.err).toMatch(/telegram: webhook listening on port \d+/);
    tg.send({ chat: dm, from: MIN, text: "hello hook" });
    await answered("echo: hello hook");
    expect(tg.calls.some((c) => c.method === "getUpdates")).toBe(false);
    const set = tg.calls.find((c) => c.method === "setWebhook");
    expect(set?.params.drop_pending_updates).toBe(false);
  }, 60_000);

  it("refuses a POST without the secret token: 401, and nothing runs", async () => {
    const before = fake.requests.length;
    const forged = {
      update_id: 999_999,
      message: { message_id: 1, date: 0, chat: dm, from: { ...MIN, is_bot: false }, text: "forged" },
    };
    const res = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(forged),
    });
    expect(res.status).toBe(401);
    tg.send({ chat: dm, from: MIN, text: "after the forgery" });
    await answered("echo: after the forgery");
    expect(texts()).not.toContain("echo: forged");
    expect(fake.requests.length).toBe(before + 1);
  }, 60_000);

  it("gets what was sent while it was down once it is back (Telegram keeps retrying)", async () => {
    expect(await gw.stop()).toBe(0);
    tg.send({ chat: dm, from: MIN, text: "while you were out" });
    await until(
      () => tg.webhook.info(tg.pendingUpdates).last_error_message,
      (e) => e !== undefined,
      "a failed delivery",
    );
    expect(tg.pendingUpdates).toBe(1);
    await gw.start();
    await answered("echo: while you were out");
    expect(texts().filter((t) => t === "echo: while you were out")).toHaveLength(1);
  }, 60_000);
});
