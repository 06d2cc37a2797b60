// The adapter contract for Telegram: grammY inside the adapter against the fake Bot API in
// testkit (long polling, offsets, 4096-character limit, forum topics), reached through a DropProxy, which
// drops its connections for the reconnect test. The peer is a user of the fake.
import { getLogger } from "@iris/llm";
import { FakeTelegram, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { TelegramAdapter } from "../src/platforms/telegram/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const PEER = { id: 501, first_name: "Min", username: "min" };
const GROUP = { id: -1001, type: "supergroup" as const, title: "team" };
const FORUM = { id: -1002, type: "supergroup" as const, title: "forum", forum: true };
const TOPICS = { a: 11, b: 22 };

describe("telegram adapter contract (fake Bot API)", () => {
  let fake: FakeTelegram | undefined;
  let proxy: DropProxy | undefined;
  const files = tempDir("iris-tg-contract");
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeTelegram.start({ token: "123:secret" });
    proxy = await DropProxy.start(Number(new URL(fake.apiRoot).port));
    const tg = fake;
    const adapter = new TelegramAdapter({
      token: "123:secret",
      tokenEnv: "TELEGRAM_BOT_TOKEN",
      apiRoot: `http://127.0.0.1:${proxy.port}`,
      pollTimeoutSeconds: 1,
      filesDir: files.path,
      logger: getLogger({ component: "test" }),
    });
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: String(PEER.id),
      group: String(GROUP.id),
      peerSendsDm: async (text) => void tg.send({ chat: { id: PEER.id, type: "private" }, from: PEER, text }),
      peerSendsGroup: async (text) => void tg.send({ chat: GROUP, from: PEER, text }),
      peerSendsThread: async (which, text) =>
        void tg.send({ chat: FORUM, from: PEER, text, threadId: TOPICS[which] }),
      peerRedeliversDm: async () => tg.redeliverLast(),
      peerReceived: async () =>
        tg
          .messages(PEER.id)
          .filter((m) => !m.deleted)
          .flatMap((m) => (m.texts.at(-1) ?? "").split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
