// Slack at start: a wrong token fails the start naming the platform (never showing the token); a
// missing app token names its variable; a second gateway on the same bot token (another home)
// refuses to start, naming the first.
import { type FakeLlm, FakeSlack, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StartHomes } from "./start-homes.js";

const BOT = "xoxb-start-bot-secret";
const APP = "xapp-start-app-secret";

describe("slack at start", () => {
  let sl: FakeSlack;
  let fake: FakeLlm;
  let homes: StartHomes;
  beforeAll(async () => {
    [sl, fake] = await Promise.all([FakeSlack.start({ botToken: BOT, appToken: APP }), startFakeLlm()]);
    homes = new StartHomes("iris-sl", fake, `slack: {api_url: "${sl.apiUrl}"}`);
  });
  afterAll(async () => {
    await Promise.all([sl.close(), fake.close()]);
    homes.cleanup();
  });

  it("a wrong bot token fails the start, naming Slack and the variable, not the token", async () => {
    const r = homes.run(homes.home(`SLACK_BOT_TOKEN=xoxb-wrong-secret\nSLACK_APP_TOKEN=${APP}\n`));
    expect(await r.running).toBe(1);
    expect(r.err()).toMatch(/slack: the token in SLACK_BOT_TOKEN was refused \(invalid_auth\)/);
    expect(r.err()).not.toContain("wrong-secret");
  });

  it("a missing app token names the variable", async () => {
    const r = homes.run(homes.home(`SLACK_BOT_TOKEN=${BOT}\n`));
    expect(await r.running).toBe(1);
    expect(r.err()).toContain("gateway.platforms.slack: SLACK_APP_TOKEN is not set");
  });

  it("a second gateway on the same bot token refuses to start, naming the first", async () => {
    const first = await homes.first(`SLACK_BOT_TOKEN=${BOT}\nSLACK_APP_TOKEN=${APP}\n`);
    const second = homes.second(`SLACK_BOT_TOKEN=${BOT}\nSLACK_APP_TOKEN=${APP}\n`);
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toContain("a Slack bot");
    expect(second.stderr).toContain(`pid ${process.pid}`);
    first.stop();
    expect(await first.running).toBe(0);
  }, 60_000);
});
