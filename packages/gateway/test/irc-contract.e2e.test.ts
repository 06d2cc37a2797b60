// The adapter contract for IRC, against a real ngircd; the bot connects through a DropProxy, which
// drops its connection for the reconnect test.

import { type Ngircd, skipWithoutNgircd, startNgircd, TestIrcClient } from "@iris/testkit";
import { afterAll, beforeAll, describe } from "vitest";
import { IrcAdapter } from "../src/platforms/irc/adapter.js";
import { adapterContract } from "./contract.js";
import { DropProxy } from "./drop-proxy.js";

const skip = skipWithoutNgircd();

describe.skipIf(skip)("IRC adapter contract (ngircd)", () => {
  let ircd: Ngircd;
  let peer: TestIrcClient;
  let proxy: DropProxy;
  beforeAll(async () => {
    ircd = await startNgircd(["#room"]);
    proxy = await DropProxy.start(ircd.port);
    peer = await TestIrcClient.connect(ircd.port, "peer");
    await peer.join("#room");
  }, 60_000);
  afterAll(async () => {
    await peer?.quit();
    await proxy?.close();
    await ircd?.stop();
  });

  adapterContract(async () => {
    const adapter = new IrcAdapter({
      server: "127.0.0.1",
      port: proxy.port,
      tls: false,
      nick: "cbot",
      channels: ["#room"],
    });
    let joined = false;
    return {
      adapter,
      proxy: () => proxy,
      peerId: "peer",
      peerUserId: "peer!~peer@127.0.0.1",
      group: "#room",
      peerSendsDm: async (t) => peer.say("cbot", t),
      peerSendsGroup: async (t) => {
        // The bot's JOIN is delayed by ngircd after registration: wait for it once.
        if (!joined) await peer.waitFor((l) => l.command === "JOIN" && l.nick === "cbot", 30_000, true);
        joined = true;
        peer.say("#room", t);
      },
      peerReceived: async () => peer.messagesFrom("cbot", "peer"),
      // The peer never left; the bot comes back on its own (the contract resends until it does).
      peerReconnected: async () => {},
    };
  });
});
