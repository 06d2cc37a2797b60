// Discord at start: a wrong token fails the start naming the platform (never showing the token);
// a second gateway on the same bot token (another home) refuses to start, naming the first.
import { FakeDiscord, type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StartHomes } from "./start-homes.js";

const TOKEN = `${Buffer.from("1100000000004194304").toString("base64")}.fake.start-secret`;

describe("discord at start", () => {
  let dc: FakeDiscord;
  let fake: FakeLlm;
  let homes: StartHomes;
  beforeAll(async () => {
    [dc, fake] = await Promise.all([FakeDiscord.start({ token: TOKEN }), startFakeLlm()]);
    homes = new StartHomes("iris-dc", fake, `discord: {api_base: "${dc.apiBase}"}`);
  });
  afterAll(async () => {
    await Promise.all([dc.close(), fake.close()]);
    homes.cleanup();
  });

  it("a wrong token fails the start, naming Discord and the variable, not the token", async () => {
    const wrong = `${Buffer.from("1100000000004194304").toString("base64")}.fake.wrong-secret`;
    const r = homes.run(homes.home(`DISCORD_BOT_TOKEN=${wrong}\n`));
    expect(await r.running).toBe(1);
    expect(r.err()).toMatch(/discord: the bot token in DISCORD_BOT_TOKEN was refused/);
    expect(r.err()).not.toContain("wrong-secret");
  }, 60_000);

  it("a second gateway on the same bot token refuses to start, naming the first", async () => {
    const first = await homes.first(`DISCORD_BOT_TOKEN=${TOKEN}\n`);
    const second = homes.second(`DISCORD_BOT_TOKEN=${TOKEN}\n`);
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toContain("bot 1100000000004194304 is already running");
    expect(second.stderr).toContain(`pid ${process.pid}`);
    expect(second.stderr).not.toContain("start-secret");
    first.stop();
    expect(await first.running).toBe(0);
  }, 60_000);
});
