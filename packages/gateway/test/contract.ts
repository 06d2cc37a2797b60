// The contract every platform adapter passes (ARCHITECTURE.md "Each gateway adapter passes one
// contract suite"): normalisation of DMs and group messages, sends within the platform's limit
// arriving whole and in order, and a reconnect after the server goes away without losing the
// next message. A platform plugs in a harness: its adapter and a peer user on the same server.
import { expect, it } from "vitest";
import type { PlatformAdapter } from "../src/adapter.js";
import type { InboundMessage } from "../src/message.js";

export interface ContractHarness {
  adapter: PlatformAdapter;
  /** The peer user's id as the adapter should report it. */
  peerId: string;
  /** A group chat both are in. */
  group: string;
  peerSendsDm(text: string): void;
  peerSendsGroup(text: string): void;
  /** What the peer received from the bot so far, as text units, in order. */
  peerReceived(): string[];
  waitPeerReceived(test: (got: string[]) => boolean): Promise<string[]>;
  /** Makes the server drop the adapter's connection (or restarts the server). */
  dropConnection(): Promise<void>;
}

export function adapterContract(make: () => ContractHarness): void {
  const inbox: InboundMessage[] = [];
  const next = async (test: (m: InboundMessage) => boolean): Promise<InboundMessage> => {
    for (let i = 0; i < 3000; i++) {
      const found = inbox.find(test);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("no matching inbound message");
  };
  let h: ContractHarness;

  it("starts and normalises a DM and a group message", async () => {
    h = make();
    await h.adapter.start((m) => inbox.push(m));
    h.peerSendsDm("direct hello");
    const dm = await next((m) => m.text === "direct hello");
    expect(dm).toMatchObject({
      platform: h.adapter.platform,
      chatType: "dm",
      chatId: h.peerId,
      userId: h.peerId,
    });
    expect(dm.messageId).not.toBe("");
    h.peerSendsGroup("group hello");
    const g = await next((m) => m.text === "group hello");
    expect(g).toMatchObject({ chatType: "group", chatId: h.group, userId: h.peerId });
    expect(g.messageId).not.toBe(dm.messageId);
  });

  it("delivers a send within its limit whole and in order", async () => {
    const lines = Array.from({ length: 5 }, (_, i) => `line ${i} ${"안녕".repeat(10)}`);
    const text = lines.join("\n");
    expect(h.adapter.limits.measure(text)).toBeLessThanOrEqual(h.adapter.limits.maxMessage);
    await h.adapter.send({ platform: h.adapter.platform, chatId: h.peerId }, text);
    const got = await h.waitPeerReceived((r) => r.includes(lines[4] ?? ""));
    expect(got.slice(got.indexOf(lines[0] ?? ""))).toEqual(lines);
  });

  it("reconnects after the connection drops and receives again", async () => {
    await h.dropConnection();
    for (let i = 0; i < 6000 && !inbox.some((m) => m.text === "after reconnect"); i++) {
      // Until the adapter is back, a message may go nowhere: send again until one arrives.
      if (i % 200 === 0) h.peerSendsDm("after reconnect");
      await new Promise((r) => setTimeout(r, 10));
    }
    await next((m) => m.text === "after reconnect");
    await h.adapter.stop();
  }, 90_000);
}
