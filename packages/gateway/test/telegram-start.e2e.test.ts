// Telegram at start: a wrong or missing token fails the start naming the platform (never showing
// the token).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, FakeTelegram, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayRun } from "../src/run.js";
import { writeGatewayProfile } from "./profile.js";
import { StartHomes } from "./start-homes.js";

const TOKEN = "4242:start-secret";

describe("telegram at start", () => {
  let tg: FakeTelegram;
  let fake: FakeLlm;
  const dirs: TempDir[] = [];
  let locks: TempDir;
  beforeAll(async () => {
    [tg, fake] = await Promise.all([FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    locks = tempDir("iris-tg-locks");
  });
  afterAll(async () => {
    await Promise.all([tg.close(), fake.close()]);
    for (const d of dirs) d.cleanup();
    locks.cleanup();
  });

  function home(token: string | undefined): TempDir {
    const d = tempDir("iris-tg-start");
    dirs.push(d);
    if (token) writeFileSync(join(d.path, ".env"), `TELEGRAM_BOT_TOKEN=${token}\n`);
    writeGatewayProfile(d.path, fake, [
      "gateway:",
      "  platforms:",
      `    telegram: {api_root: "${tg.apiRoot}", poll_timeout_seconds: 1}`,
    ]);
    return d;
  }

  function run(d: TempDir, until = Promise.resolve()) {
    let err = "";
    const running = gatewayRun({
      env: { IRIS_HOME: d.path, IRIS_LOCK_DIR: locks.path },
      out: () => {},
      err: (s) => {
        err += s;
      },
      until,
      cwd: d.path,
    });
    return { running, err: () => err };
  }

  it("a wrong token fails the start, naming Telegram and the variable, not the token", async () => {
    const r = run(home("4242:wrong-secret"));
    expect(await r.running).toBe(1);
    expect(r.err()).toMatch(/telegram: the bot token in TELEGRAM_BOT_TOKEN was refused \(401 Unauthorized\)/);
    expect(r.err()).not.toContain("wrong-secret");
  });

  it("a missing token names the variable and the .env", async () => {
    const r = run(home(undefined));
    expect(await r.running).toBe(1);
    expect(r.err()).toContain("gateway.platforms.telegram: TELEGRAM_BOT_TOKEN is not set");
  });

  it("a second gateway on the same bot token refuses to start, naming the first", async () => {
    const homes = new StartHomes(
      "iris-tg",
      fake,
      `telegram: {api_root: "${tg.apiRoot}", poll_timeout_seconds: 1}`,
    );
    try {
      const first = await homes.first(`TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
      const second = homes.second(`TELEGRAM_BOT_TOKEN=${TOKEN}\n`);
      expect(second.status, second.stderr).toBe(1);
      expect(second.stderr).toContain("bot 4242 is already running");
      expect(second.stderr).toContain(`pid ${process.pid}`);
      expect(second.stderr).not.toContain("start-secret");
      first.stop();
      expect(await first.running).toBe(0);
    } finally {
      homes.cleanup();
    }
  }, 60_000);
});
