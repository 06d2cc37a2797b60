// The contract every platform adapter passes (ARCHITECTURE.md "Each gateway adapter passes one
// contract suite"), run against IRC (a real ngircd) and the web chat (a real Chromium page):
// normalisation of DMs and group messages, the session keys of DMs, groups and threads or topics,
// the runner's mention filter on them, sends whole and in order, long replies split by the
// outbox's deliverer, inbound dedupe, edit flood limits, and a reconnect with backoff after the
// connection drops. A platform plugs in a harness: its adapter (connected through a DropProxy)
// and a peer user on the same server. A platform without group chats (WhatsApp's Cloud API)
// leaves `group` out; one that holds no connection of its own (its events come as webhooks)
// leaves `proxy` out: those parts do not apply to it.
import { join } from "node:path";
import { openStore } from "@iris/host";
import { getLogger } from "@iris/llm";
import { tempDir } from "@iris/testkit";
import { expect, it } from "vitest";
import type { PlatformAdapter } from "../src/adapter.js";
import type { InboundMessage } from "../src/message.js";
import { Deliverer } from "../src/pipeline/deliver.js";
import { filterMention } from "../src/pipeline/mention.js";
import { sessionKey } from "../src/pipeline/session-key.js";
import { ProgressMessage } from "../src/progress.js";
import { type GatewayState, openGatewayTables } from "../src/state/index.js";
import type { DropProxy } from "./drop-proxy.js";

export interface ContractHarness {
  adapter: PlatformAdapter;
  /** Between the adapter and its peer: drops connections on demand (ready after afterStart). */
  proxy?(): DropProxy;
  /** Runs once the adapter has started (the web chat's peer can connect only then). */
  afterStart?(): Promise<void>;
  /** The peer user's id as the adapter should report it (its DM's chat id). */
  peerId: string;
  /** The peer as speaker, where that is more than the chat id (IRC: nick!user@host). */
  peerUserId?: string;
  /** A group chat both are in. */
  group?: string;
  peerSendsDm(text: string): Promise<void>;
  peerSendsGroup?(text: string): Promise<void>;
  /** The peer writes in thread (or forum topic) `which` of a group; absent where there are none. */
  peerSendsThread?(which: "a" | "b", text: string): Promise<void>;
  /** The platform delivers the peer's last DM again (a retry); absent where it cannot (IRC). */
  peerRedeliversDm?(): Promise<void>;
  /** What the peer received from the bot in the DM so far, as lines, in order. */
  peerReceived(): Promise<string[]>;
  /** Waits for the peer's connection to be back after an outage (with `proxy`). */
  peerReconnected?(): Promise<void>;
}

const poll = async <T>(get: () => T | Promise<T>, ok: (v: T) => boolean, what: string, ms = 60_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** A store in a temp folder, for the parts of the runner the contract drives. */
async function tempState(): Promise<{ state: GatewayState; cleanup: () => void }> {
  const dir = tempDir("iris-contract");
  const store = openStore(join(dir.path, "state.db"));
  return {
    state: (await openGatewayTables(store)).state,
    cleanup: async () => {
      await store.close();
      dir.cleanup();
    },
  };
}

export function adapterContract(make: () => Promise<ContractHarness>): void {
  const inbox: InboundMessage[] = [];
  const next = (test: (m: InboundMessage) => boolean) =>
    poll(
      () => inbox.find(test),
      (m) => m !== undefined,
      "an inbound message",
    ) as Promise<InboundMessage>;
  let h: ContractHarness;
  const dm = () => ({ platform: h.adapter.platform, chatId: h.peerId });

  it("starts and normalises a DM and a group message", async () => {
    h = await make();
    await h.adapter.start((m) => inbox.push(m));
    await h.afterStart?.();
    await h.peerSendsDm("direct hello");
    const d = await next((m) => m.text === "direct hello");
    expect(d).toMatchObject({
      platform: h.adapter.platform,
      chatType: "dm",
      chatId: h.peerId,
      userId: h.peerUserId ?? h.peerId,
    });
    expect(d.messageId).not.toBe("");
    if (!h.group || !h.peerSendsGroup) return;
    await h.peerSendsGroup("group hello");
    const g = await next((m) => m.text === "group hello");
    expect(g).toMatchObject({ chatType: "group", chatId: h.group, userId: h.peerUserId ?? h.peerId });
    expect(g.messageId).not.toBe(d.messageId);
  }, 120_000);

  it("group messages pass the runner's mention filter only when they name the bot", async () => {
    const policy = { requireMention: true, wakeWords: [] };
    const [bot = ""] = h.adapter.botNames();
    if (h.peerSendsGroup) {
      await h.peerSendsGroup("no one in particular");
      await h.peerSendsGroup(`${bot}: are you there?`);
      const plain = await next((m) => m.text === "no one in particular");
      const named = await next((m) => m.text.endsWith("are you there?"));
      expect(filterMention(plain, h.adapter.botNames(), policy)).toEqual({ addressed: false });
      expect(filterMention(named, h.adapter.botNames(), policy)).toEqual({
        addressed: true,
        text: "are you there?",
      });
    }
    const d = inbox.find((m) => m.text === "direct hello");
    expect(d && filterMention(d, h.adapter.botNames(), policy)).toEqual({
      addressed: true,
      text: "direct hello",
    });
  }, 120_000);

  it("keys a DM, a group and each thread or topic as sessions of their own", async () => {
    const d = inbox.find((m) => m.text === "direct hello");
    const g = inbox.find((m) => m.text === "group hello");
    if (!d || (h.group && !g)) throw new Error("the first test's messages are missing");
    const p = h.adapter.platform;
    expect(sessionKey(d, "shared").startsWith(`${p}:dm:`)).toBe(true);
    if (!g) return; // no group chats
    expect(sessionKey(g, "shared").startsWith(`${p}:group:`)).toBe(true);
    // Per-user group sessions: the speaker is part of the key.
    expect(sessionKey(g, "per_user")).not.toBe(sessionKey(g, "shared"));
    if (!h.peerSendsThread) return; // IRC and the web chat have no threads
    await h.peerSendsThread("a", "in thread a");
    await h.peerSendsThread("b", "in thread b");
    await h.peerSendsThread("a", "thread a again");
    const a = await next((m) => m.text === "in thread a");
    const b = await next((m) => m.text === "in thread b");
    const again = await next((m) => m.text === "thread a again");
    expect(a).toMatchObject({ chatType: "group", userId: h.peerUserId ?? h.peerId });
    expect(a.threadId).toBeDefined();
    expect(sessionKey(again, "shared")).toBe(sessionKey(a, "shared"));
    expect(sessionKey(b, "shared")).not.toBe(sessionKey(a, "shared"));
    expect(sessionKey(a, "shared")).not.toBe(sessionKey(g, "shared"));
  }, 120_000);

  it("delivers a send within its limit whole and in order", async () => {
    const lines = Array.from({ length: 5 }, (_, i) => `line ${i} ${"안녕".repeat(10)}`);
    const text = lines.join("\n");
    expect(h.adapter.limits.measure(text)).toBeLessThanOrEqual(h.adapter.limits.maxMessage);
    await h.adapter.send(dm(), text, { key: "contract:short#0" });
    const got = await poll(h.peerReceived, (r) => r.includes(lines[4] ?? ""), "the five lines");
    expect(got.slice(got.indexOf(lines[0] ?? ""))).toEqual(lines);
  }, 120_000);

  it("a reply over the limit is split by the outbox's deliverer and arrives whole, once, in order", async () => {
    const { maxMessage, measure } = h.adapter.limits;
    const line = (i: number) => `part-line ${String(i).padStart(4, "0")} ${"한글abc".repeat(6)}`;
    const n = Math.ceil((2.5 * maxMessage) / measure(`${line(0)}\n`));
    const lines = Array.from({ length: n }, (_, i) => line(i));
    const store = await tempState();
    try {
      const deliverer = new Deliverer(store.state, h.adapter, getLogger());
      const first = await deliverer.deliver("contract:long", dm(), lines.join("\n"));
      expect(first.sent).toBeGreaterThanOrEqual(3);
      expect(await deliverer.deliver("contract:long", dm(), lines.join("\n"))).toEqual({
        sent: 0,
        skipped: first.sent,
      });
    } finally {
      store.cleanup();
    }
    const got = await poll(h.peerReceived, (r) => r.includes(lines.at(-1) ?? ""), "the long reply", 120_000);
    const from = got.indexOf(lines[0] ?? "");
    expect(got.slice(from)).toEqual(lines);
  }, 180_000);

  it("gives each message its own id, and a redelivery the same one (the runner claims it once)", async () => {
    await h.peerSendsDm("same words");
    await h.peerSendsDm("same words");
    const two = await poll(
      () => inbox.filter((m) => m.text === "same words"),
      (a) => a.length === 2,
      "two messages",
    );
    expect(two[0]?.messageId).not.toBe(two[1]?.messageId);
    if (!h.peerRedeliversDm) return; // IRC has no message ids to repeat (nor redeliveries)
    await h.peerRedeliversDm();
    const three = await poll(
      () => inbox.filter((m) => m.text === "same words"),
      (a) => a.length === 3,
      "a redelivery",
    );
    expect(three[2]?.messageId).toBe(three[1]?.messageId);
    const store = await tempState();
    try {
      const { state } = store;
      const claimed: boolean[] = [];
      for (const m of three) claimed.push(await state.claimInbound({ ...m, chatKey: "k" }));
      expect(claimed).toEqual([true, true, false]);
    } finally {
      store.cleanup();
    }
  }, 120_000);

  it("edits a status message no more often than the platform allows; the newest text wins", async () => {
    const edit = h.adapter.edit?.bind(h.adapter);
    const times: number[] = [];
    if (edit)
      h.adapter.edit = async (to, id, text) => {
        times.push(Date.now());
        await edit(to, id, text);
      };
    const before = (await h.peerReceived()).length;
    try {
      const progress = new ProgressMessage(h.adapter, dm());
      for (let i = 1; i <= 40; i++) {
        progress.update(`working ${i}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      await poll(
        () => times.length,
        (n) => !edit || n > 0,
        "an edit",
      );
      progress.update("working 40 (final)");
      await poll(
        () => times.length,
        (n) => !edit || n > 1,
        "the last edit",
        30_000,
      );
      await progress.done();
    } finally {
      if (edit) h.adapter.edit = edit;
    }
    const got = await h.peerReceived();
    if (!edit) {
      // A platform that cannot edit gets no progress lines at all, rather than a flood.
      expect(got.length).toBe(before);
      return;
    }
    for (let i = 1; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(
        h.adapter.limits.minEditIntervalMs - 5,
      );
    expect(times.length).toBeLessThan(40);
  }, 120_000);

  it("reconnects after the connection drops, backing off, and receives again", async () => {
    if (!h.proxy) return void (await h.adapter.stop()); // no connection of its own to lose
    const refused = await h.proxy().outage(5000);
    // No reconnect storm: a backoff makes a handful of attempts in 5 s, a loop makes hundreds.
    // (How many is timing, so only the upper bound is asserted; that it came back is below.)
    expect(refused).toBeLessThanOrEqual(30);
    await h.peerReconnected?.();
    for (let i = 0; !inbox.some((m) => m.text === "after reconnect"); i++) {
      // Until the adapter is back, a message may go nowhere: send again until one arrives.
      if (i % 80 === 0) await h.peerSendsDm("after reconnect");
      if (i > 4000) throw new Error("nothing arrived after the reconnect");
      await new Promise((r) => setTimeout(r, 25));
    }
    await h.adapter.stop();
  }, 180_000);
}
