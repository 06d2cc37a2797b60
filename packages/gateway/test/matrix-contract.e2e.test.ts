// The adapter contract for Matrix: matrix-js-sdk inside the adapter against the fake homeserver
// in testkit (sync long-poll from `since`, txnId-idempotent sends), reached through a DropProxy.
import { getLogger } from "@iris/llm";
import { FakeMatrix, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { MatrixAdapter } from "../src/platforms/matrix/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const BOT = "@iris:fake.test";
const MIN = "@min:fake.test";
const DM = "!dm:fake.test";
const TEAM = "!team:fake.test";

describe("matrix adapter contract (fake homeserver)", () => {
  let fake: FakeMatrix | undefined;
  let proxy: DropProxy | undefined;
  const files = tempDir("iris-mx-contract");
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeMatrix.start({
      botUserId: BOT,
      token: "mx-token",
      rooms: { [DM]: [BOT, MIN], [TEAM]: [BOT, MIN, "@jo:fake.test"] },
    });
    proxy = await DropProxy.start(Number(new URL(fake.baseUrl).port));
    const mx = fake;
    const adapter = new MatrixAdapter({
      homeserver: `http://127.0.0.1:${proxy.port}`,
      userId: BOT,
      token: "mx-token",
      tokenEnv: "MATRIX_ACCESS_TOKEN",
      syncFile: `${files.path}/sync-token`,
      filesDir: `${files.path}/media`,
      logger: getLogger({ component: "test" }),
    });
    return {
      adapter,
      proxy: () => proxy as DropProxy,
      peerId: DM,
      peerUserId: MIN,
      group: TEAM,
      peerSendsDm: async (text) => void mx.userSends(DM, MIN, text),
      peerSendsGroup: async (text) => void mx.userSends(TEAM, MIN, text),
      // No redelivery here: the SDK itself drops an event id its timeline already holds. Across a
      // restart the resumed sync repeats at most one sync's events, which the runner claims once
      // (matrix.e2e.test.ts).
      peerReceived: async () => mx.botMessages(DM).flatMap((m) => m.text.split("\n").filter((l) => l !== "")),
      peerReconnected: async () => {},
    };
  });
});
