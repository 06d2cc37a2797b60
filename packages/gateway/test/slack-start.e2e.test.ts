// Slack at start: a wrong token fails the start naming the platform (never showing the token); a
// missing app token names its variable; a second gateway on the same bot token (another home)
// refuses to start, naming the first.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, FakeSlack, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayRun } from "../src/run.js";
import { writeGatewayProfile } from "./profile.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");
const BOT = "xoxb-start-bot-secret";
const APP = "xapp-start-app-secret";

describe("slack at start", () => {
  let sl: FakeSlack;
  let fake: FakeLlm;
  const dirs: TempDir[] = [];
  let locks: TempDir;
  beforeAll(async () => {
    [sl, fake] = await Promise.all([FakeSlack.start({ botToken: BOT, appToken: APP }), startFakeLlm()]);
    locks = tempDir("iris-sl-locks");
  });
  afterAll(async () => {
    await Promise.all([sl.close(), fake.close()]);
    for (const d of dirs) d.cleanup();
    locks.cleanup();
  });

  function home(env: string): TempDir {
    const d = tempDir("iris-sl-start");
    dirs.push(d);
    writeFileSync(join(d.path, ".env"), env);
    writeGatewayProfile(d.path, fake, ["gateway:", "  platforms:", `    slack: {api_url: "${sl.apiUrl}"}`]);
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

  it("a wrong bot token fails the start, naming Slack and the variable, not the token", async () => {
    const r = run(home(`SLACK_BOT_TOKEN=xoxb-wrong-secret\nSLACK_APP_TOKEN=${APP}\n`));
    expect(await r.running).toBe(1);
    expect(r.err()).toMatch(/slack: the token in SLACK_BOT_TOKEN was refused \(invalid_auth\)/);
    expect(r.err()).not.toContain("wrong-secret");
  });

  it("a missing app token names the variable", async () => {
    const r = run(home(`SLACK_BOT_TOKEN=${BOT}\n`));
    expect(await r.running).toBe(1);
    expect(r.err()).toContain("gateway.platforms.slack: SLACK_APP_TOKEN is not set");
  });

  it("a second gateway on the same bot token refuses to start, naming the first", async () => {
    let stop = () => {};
    const first = run(
      home(`SLACK_BOT_TOKEN=${BOT}\nSLACK_APP_TOKEN=${APP}\n`),
      new Promise<void>((r) => {
        stop = r;
      }),
    );
    for (let i = 0; !first.err().includes("running (pid"); i++) {
      if (i > 1500) throw new Error(`the first never started: ${first.err()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // The second is another process (the built bin, as a user starts it): the lock is per process.
    const other = home(`SLACK_BOT_TOKEN=${BOT}\nSLACK_APP_TOKEN=${APP}\n`);
    const second = spawnSync(process.execPath, [IRIS_BIN, "gateway", "run"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: other.path,
        IRIS_HOME: other.path,
        IRIS_LOCK_DIR: locks.path,
      },
      cwd: other.path,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toContain("a Slack bot");
    expect(second.stderr).toContain(`pid ${process.pid}`);
    stop();
    expect(await first.running).toBe(0);
  }, 60_000);
});
