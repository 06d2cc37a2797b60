// The adapter contract for Discord: discord.js inside the adapter against the fake Discord in
// testkit (REST and the Gateway WebSocket on one port, 2000-character limit), reached through a
// DropProxy, which drops the Gateway connection for the reconnect test. The peer is a user of the fake.
import { getLogger } from "@iris/llm";
import { FakeDiscord, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { DiscordAdapter } from "../src/platforms/discord/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const PEER = { id: "1200000000000000501", username: "min" };
const TOKEN = `${Buffer.from("1100000000004194304").toString("base64")}.fake.secret`;

describe("discord adapter contract (fake Discord)", () => {
  let fake: FakeDiscord | undefined;
  let proxy: DropProxy | undefined;
  const files = tempDir("iris-dc-contract");
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeDiscord.start({ token: TOKEN, heartbeatIntervalMs: 1000 });
    const dc = fake;
    const { channelIds } = dc.addGuild("team", ["general"]);
    const group = channelIds[0] as string;
    const dm = dc.dmChannel(PEER);
    const threads = { a: dc.addThread(group, "thread a"), b: dc.addThread(group, "thread b") };
    proxy = await DropProxy.start(dc.port);
    const adapter = new DiscordAdapter({
      token: TOKEN,
      tokenEnv: "DISCORD_BOT_TOKEN",
      apiBase: `http://127.0.0.1:${proxy.port}/api`,
      filesDir: files.path,
      logger: getLogger({ component: "test" }),
    });
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: dm,
      peerUserId: PEER.id,
      group,
      peerSendsDm: async (content) => void dc.send({ channelId: dm, author: PEER, content }),
      peerSendsGroup: async (content) => void dc.send({ channelId: group, author: PEER, content }),
      peerSendsThread: async (which, content) =>
        void dc.send({ channelId: threads[which], author: PEER, content }),
      // No peerRedeliversDm: discord.js itself drops a MESSAGE_CREATE whose id it has cached (a
      // resume's replay); a message id is Discord's snowflake, the same after a restart.
      peerReceived: async () =>
        dc
          .messages(dm)
          .filter((m) => !m.deleted)
          .flatMap((m) => (m.texts.at(-1) ?? "").split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
