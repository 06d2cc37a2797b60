// The adapter contract for Slack: Bolt (Socket Mode) inside the adapter against the fake Slack in
// testkit (the Web API and the Socket Mode WebSocket on one port), reached through a DropProxy,
// which drops the socket for the reconnect test. The peer is a user of the fake.
import { getLogger } from "@iris/llm";
import { FakeSlack, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { SlackAdapter } from "../src/platforms/slack/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const BOT_TOKEN = "xoxb-1-fake-bot-secret";
const APP_TOKEN = "xapp-1-fake-app-secret";

describe("slack adapter contract (fake Slack, Socket Mode)", () => {
  let fake: FakeSlack | undefined;
  let proxy: DropProxy | undefined;
  const files = tempDir("iris-sl-contract");
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeSlack.start({ botToken: BOT_TOKEN, appToken: APP_TOKEN, pingIntervalMs: 1000 });
    const sl = fake;
    const peer = sl.addUser("min");
    const dm = sl.dm(peer);
    const group = sl.addChannel("general");
    proxy = await DropProxy.start(sl.port);
    const adapter = new SlackAdapter({
      token: BOT_TOKEN,
      tokenEnv: "SLACK_BOT_TOKEN",
      mode: "socket",
      appToken: APP_TOKEN,
      apiUrl: `http://127.0.0.1:${proxy.port}/api/`,
      filesDir: files.path,
      logger: getLogger({ component: "test" }),
    });
    // A thread is the replies under a message in the channel (its ts: the thread's id).
    const roots: Partial<Record<"a" | "b", string>> = {};
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: dm,
      peerUserId: peer,
      group,
      peerSendsDm: async (text) => void sl.send({ channel: dm, user: peer, text }),
      peerSendsGroup: async (text) =>
        void sl.send({
          channel: group,
          user: peer,
          // "@iris: …" as a person types it is <@BOT> in the event's text.
          text: text.replace(/^iris: /, `<@${sl.bot.userId}> `),
        }),
      peerSendsThread: async (which, text) => {
        roots[which] ??= sl.send({ channel: group, user: peer, text: `root of thread ${which}` });
        sl.send({ channel: group, user: peer, text, threadTs: roots[which] });
      },
      peerRedeliversDm: async () => sl.redeliverLast(),
      peerReceived: async () =>
        sl.botMessages(dm).flatMap((m) => (m.texts.at(-1) ?? "").split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
