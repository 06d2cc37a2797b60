// gateway_url: discord.js reaches REST at api_base and the Gateway at the configured URL (here a
// DropProxy in front of the fake), not the one /gateway/bot names.
import { getLogger } from "@iris/llm";
import { FakeDiscord, tempDir } from "@iris/testkit";
import { afterAll, expect, it } from "vitest";
import { DiscordAdapter } from "../src/platforms/discord/adapter.js";
import { DropProxy } from "./drop-proxy.js";

const TOKEN = `${Buffer.from("1100000000004194304").toString("base64")}.fake.secret`;

it("connects the Gateway through gateway_url and receives there", async () => {
  const dc = await FakeDiscord.start({ token: TOKEN, heartbeatIntervalMs: 1000 });
  const proxy = await DropProxy.start(dc.port);
  const files = tempDir("iris-dc-gwurl");
  const adapter = new DiscordAdapter({
    token: TOKEN,
    tokenEnv: "DISCORD_BOT_TOKEN",
    apiBase: dc.apiBase,
    gatewayUrl: `ws://127.0.0.1:${proxy.port}`,
    filesDir: files.path,
    logger: getLogger({ component: "test" }),
  });
  afterAll(async () => {
    await adapter.stop();
    await proxy.close();
    await dc.close();
    files.cleanup();
  });
  const got: string[] = [];
  await adapter.start((m) => got.push(m.text));
  const peer = { id: "1200000000000000501", username: "min" };
  dc.send({ channelId: dc.dmChannel(peer), author: peer, content: "via the proxy" });
  for (let i = 0; !got.includes("via the proxy"); i++) {
    if (i > 1500) throw new Error("nothing arrived");
    await new Promise((r) => setTimeout(r, 20));
  }
  // The Gateway's connection is the proxy's: dropping it makes the adapter knock there again.
  proxy.drop();
  for (let i = 0; proxy.refused === 0; i++) {
    if (i > 1500) throw new Error("the adapter never reconnected through the proxy");
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(proxy.refused).toBeGreaterThan(0);
  proxy.restore();
}, 60_000);
