// The adapter contract for WhatsApp: the Cloud API adapter (its webhook server, Graph API sends)
// against the fake Graph API in testkit, which calls the webhook signed as Meta does. The Cloud
// API has no group chats here and the adapter holds no connection (Meta calls it), so the
// contract's group and reconnect parts do not apply.
import { getLogger } from "@iris/llm";
import { FakeWhatsapp, tempDir } from "@iris/testkit";
import { afterAll, describe } from "vitest";
import { WhatsappAdapter } from "../src/platforms/whatsapp/adapter.js";
import { config } from "../src/platforms/whatsapp/config.js";
import { adapterContract } from "./contract.js";

const MIN = "821012345678";

describe("whatsapp adapter contract (fake Cloud API)", () => {
  let fake: FakeWhatsapp | undefined;
  const files = tempDir("iris-wa-contract");
  afterAll(async () => {
    await fake?.close();
    files.cleanup();
  });

  adapterContract(async () => {
    fake = await FakeWhatsapp.start({ token: "wa-token", appSecret: "wa-app-secret", phoneNumberId: "1111" });
    const wa = fake;
    const adapter = new WhatsappAdapter({
      config: config.parse({ phone_number_id: "1111", api_root: wa.apiRoot, port: 0 }),
      token: "wa-token",
      appSecret: "wa-app-secret",
      verifyToken: "wa-verify",
      filesDir: files.path,
      logger: getLogger({ component: "test" }),
    });
    return {
      adapter,
      afterStart: async () => {
        wa.webhook = adapter.url;
      },
      peerId: MIN,
      peerSendsDm: async (text) => void (await wa.userSends({ from: MIN, name: "Min", text })),
      peerRedeliversDm: async () => void (await wa.redeliverLast()),
      peerReceived: async () =>
        wa.sent
          .filter((s) => s.to === MIN)
          .flatMap((s) => (s.text ?? "").split("\n").filter((l) => l !== "")),
    };
  });
});
