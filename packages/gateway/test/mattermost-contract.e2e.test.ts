// The adapter contract for Mattermost: @mattermost/client (Client4 and the WebSocketClient) inside
// the adapter against the fake Mattermost in testkit (REST and the WebSocket on one port), reached
// through a DropProxy, which drops the socket and refuses connections for the reconnect test.
import { getLogger } from "@iris/llm";
import { FakeMattermost, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { MattermostAdapter } from "../src/platforms/mattermost/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const TOKEN = "mm-contract-secret-token";

describe("mattermost adapter contract (fake Mattermost)", () => {
  let fake: FakeMattermost | undefined;
  let proxy: DropProxy | undefined;
  const files = tempDir("iris-mm-contract");
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeMattermost.start({ token: TOKEN });
    const mm = fake;
    const min = mm.addUser("min");
    const dm = mm.dm(min);
    const town = mm.addChannel("town-square", [min]);
    // Two threads of the channel, each a root post the peer wrote.
    const roots = {
      a: mm.userPosts({ channel: town, user: min, message: "thread a starts" }),
      b: mm.userPosts({ channel: town, user: min, message: "thread b starts" }),
    };
    proxy = await DropProxy.start(mm.port);
    const adapter = new MattermostAdapter({
      url: `http://127.0.0.1:${proxy.port}`,
      token: TOKEN,
      tokenEnv: "MATTERMOST_TOKEN",
      sinceFile: `${files.path}/since`,
      filesDir: `${files.path}/files`,
      logger: getLogger({ component: "test" }),
    });
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: dm,
      peerUserId: min,
      group: town,
      peerSendsDm: async (message) => void mm.userPosts({ channel: dm, user: min, message }),
      peerSendsGroup: async (message) => void mm.userPosts({ channel: town, user: min, message }),
      peerSendsThread: async (which, message) =>
        void mm.userPosts({ channel: town, user: min, message, rootId: roots[which] }),
      peerRedeliversDm: async () => mm.redeliverLast(),
      peerReceived: async () => mm.botPosts(dm).flatMap((p) => p.message.split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
