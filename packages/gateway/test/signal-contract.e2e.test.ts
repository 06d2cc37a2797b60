// The adapter contract for Signal: the adapter's plain-fetch JSON-RPC and SSE reader against the
// fake signal-cli daemon in testkit, reached through a DropProxy (the reconnect test drops the
// event stream and refuses connections for a while).
import { getLogger } from "@iris/llm";
import { FakeSignal, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { SignalAdapter } from "../src/platforms/signal/adapter.js";
import { config } from "../src/platforms/signal/config.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const BOT = "+15550000001";
const MIN = "+821012345678";
const TEAM = "dGVhbWdyb3VwaWQ=";

describe("signal adapter contract (fake signal-cli daemon)", () => {
  let fake: FakeSignal | undefined;
  let proxy: DropProxy | undefined;
  const files = tempDir("iris-signal-contract");
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeSignal.start({
      account: BOT,
      users: [
        { number: MIN, name: "Min" },
        { number: "+4915112345678", name: "Jo" },
      ],
      groups: { [TEAM]: [BOT, MIN, "+4915112345678"] },
    });
    proxy = await DropProxy.start(Number(new URL(fake.url).port));
    const sg = fake;
    const adapter = new SignalAdapter({
      config: config.parse({ url: `http://127.0.0.1:${proxy.port}`, account: BOT }),
      filesDir: files.path,
      logger: getLogger({ component: "test" }),
    });
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: MIN,
      group: `group.${TEAM}`,
      peerSendsDm: async (text) => void sg.userSends({ from: MIN, text }),
      peerSendsGroup: async (text) => void sg.userSends({ from: MIN, group: TEAM, text }),
      peerRedeliversDm: async () => sg.redeliver(),
      peerReceived: async () => sg.sentTo(MIN).flatMap((m) => m.message.split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
