// Telegram at start: a wrong or missing token fails the start naming the platform (never showing
// the token), as does a webhook Telegram refuses; a second gateway on the same bot token (another
// home) refuses to start, naming the first.
import { type FakeLlm, FakeTelegram, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StartHomes } from "./start-homes.js";

const TOKEN = "4242:start-secret";

describe("telegram at start", () => {
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let homes: StartHomes;
  beforeAll(async () => {
    [tg, fake] = await Promise.all([FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    homes = new StartHomes("iris-tg", fake, `telegram: {api_root: "${tg.apiRoot}", poll_timeout_seconds: 1}`);
  });
  afterAll(async () => {
    await Promise.all([tg.close(), fake.close()]);
    homes.cleanup();
  });

  it("a wrong token fails the start, naming Telegram and the variable, not the token", async () => {
    const r = homes.run(homes.home("TELEGRAM_BOT_TOKEN=4242:wrong-secret\n"));
    expect(await r.running).toBe(1);
    expect(r.err()).toMatch(/telegram: the bot token in TELEGRAM_BOT_TOKEN was refused \(401 Unauthorized\)/);
    expect(r.err()).not.toContain("wrong-secret");
  });

  it("a missing token names the variable and the .env", async () => {
    const r = homes.run(homes.home(undefined));
    expect(await r.running).toBe(1);
    expect(r.err()).toContain("gateway.platforms.telegram: TELEGRAM_BOT_TOKEN is not set");
  });

  it("a webhook URL Telegram refuses fails the start, naming Telegram and why", async () => {
    const hooked = new StartHomes(
      "iris-tg-hook",
      fake,
      `telegram: {api_root: "${tg.apiRoot}", webhook: {url: "http://bot.example.org/hook", listen_port: 0}}`,
    );
    try {
      const r = hooked.run(hooked.home(`TELEGRAM_BOT_TOKEN=${TOKEN}\n`));
      expect(await r.running).toBe(1);
      expect(r.err()).toContain(
        "telegram: 400 Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
      );
      expect(tg.webhook.url).toBeUndefined();
    } finally {
      hooked.cleanup();
    }
  });

  it("a second gateway on the same bot token refuses to start, naming the first", async () => {
    const first = await homes.first(`TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
    const second = homes.second(`TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toContain("bot 4242 is already running");
    expect(second.stderr).toContain(`pid ${process.pid}`);
    expect(second.stderr).not.toContain("start-secret");
    first.stop();
    expect(await first.running).toBe(0);
  }, 60_000);
});
