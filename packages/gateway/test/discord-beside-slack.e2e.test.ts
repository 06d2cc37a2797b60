// Discord in a gateway that loaded Slack first (both configured): Slack's socket mode brings
// undici 7, which then owns the process's global HTTP dispatcher, and discord.js's own undici 6
// could not send its multipart bodies through it. The adapter sends a file all the same.
import "@slack/bolt";
import { getLogger } from "@iris/llm";
import { FakeDiscord, solidPng, tempDir } from "@iris/testkit";
import { afterAll, expect, it } from "vitest";
import { DiscordAdapter } from "../src/platforms/discord/adapter.js";
import { until } from "./e2e-gateway.js";

const TOKEN = `${Buffer.from("1100000000004194304").toString("base64")}.beside.secret`;
const files = tempDir("iris-dc-beside");
let dc: FakeDiscord | undefined;
let adapter: DiscordAdapter | undefined;
afterAll(async () => {
  await adapter?.stop();
  await dc?.close();
  files.cleanup();
});

it("sends a file (multipart) when Slack's client was loaded before discord.js", async () => {
  dc = await FakeDiscord.start({ token: TOKEN });
  const channel = dc.dmChannel({ id: "1200000000000000777", username: "min" });
  adapter = new DiscordAdapter({
    token: TOKEN,
    tokenEnv: "DISCORD_BOT_TOKEN",
    apiBase: dc.apiBase,
    filesDir: files.path,
    logger: getLogger({ component: "test" }),
  });
  await adapter.start(() => {});
  const png = solidPng(3, 3);
  await adapter.sendFile(
    { platform: "discord", chatId: channel },
    { name: "a.png", data: png, caption: "pic" },
  );
  const sent = await until(
    () => dc?.messages(channel) ?? [],
    (m) => m.length > 0,
    "the file",
  );
  expect(sent[0]?.texts[0]).toBe("pic");
  expect(sent[0]?.files?.[0]?.bytes.equals(png)).toBe(true);
}, 60_000);
