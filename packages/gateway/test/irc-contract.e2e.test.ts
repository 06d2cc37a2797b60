// The adapter contract for IRC, against a real ngircd (restarted on the same port to drop the
// bot's connection).
import { afterAll, beforeAll, describe } from "vitest";
import { IrcAdapter } from "../src/platforms/irc.js";
import { adapterContract } from "./contract.js";
import { TestIrcClient } from "./irc-client.js";
import { type Ngircd, skipWithoutNgircd, startNgircd } from "./ngircd.js";

const skip = skipWithoutNgircd();

describe.skipIf(skip)("IRC adapter contract (ngircd)", () => {
  let ircd: Ngircd;
  let peer: TestIrcClient;
  beforeAll(async () => {
    ircd = await startNgircd(["#room"]);
    peer = await TestIrcClient.connect(ircd.port, "peer");
    await peer.join("#room");
  }, 60_000);
  afterAll(async () => {
    await peer?.quit();
    await ircd?.stop();
  });

  adapterContract(() => {
    const adapter = new IrcAdapter({
      server: "127.0.0.1",
      port: ircd.port,
      tls: false,
      nick: "cbot",
      channels: ["#room"],
    });
    let joined = false;
    return {
      adapter,
      peerId: "peer",
      group: "#room",
      peerSendsDm: (t) => peer.say("cbot", t),
      peerSendsGroup: (t) => {
        // The bot's JOIN is delayed by ngircd after registration: wait for it once.
        const send = () => peer.say("#room", t);
        if (joined) return send();
        void peer
          .waitFor((l) => l.command === "JOIN" && l.nick === "cbot", 30_000, true)
          .then(() => {
            joined = true;
            send();
          });
      },
      peerReceived: () => peer.messagesFrom("cbot"),
      waitPeerReceived: (test) => peer.waitForText("cbot", test),
      dropConnection: async () => {
        await peer.quit();
        await ircd.stop();
        ircd = await ircd.restart();
        peer = await TestIrcClient.connect(ircd.port, "peer");
      },
    };
  });
});
