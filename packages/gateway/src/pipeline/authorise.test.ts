// Identities that cannot be borrowed (SPEC G1), against the real gateway state on a temp store:
// a listed name binds to its first id, a pattern or an id admits only what it names, and a
// paired user is their whole id.
import { join } from "node:path";
import { openStore, type Store } from "@iris/host";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InboundMessage } from "../message.js";
import { normaliseMessage } from "../platforms/telegram/normalise.js";
import { type GatewayIdentities, type GatewayState, openGatewayTables } from "../state/index.js";
import { type AuthPolicy, authorise } from "./authorise.js";

let dir: TempDir;
let store: Store;
let state: GatewayState;
let ids: GatewayIdentities;
beforeEach(async () => {
  dir = tempDir("iris-authorise");
  store = openStore(join(dir.path, "state.db"));
  ({ state, identities: ids } = await openGatewayTables(store));
});
afterEach(async () => {
  await store.close();
  dir.cleanup();
});

const policy = (allowed: string[]): AuthPolicy => ({
  allowAll: false,
  allowed: { irc: allowed },
  codeTtlMs: 60_000,
  maxPending: 10,
});
const from = (nick: string, mask: string, chatType: "dm" | "group" = "dm"): InboundMessage => ({
  platform: "irc",
  chatType,
  chatId: chatType === "dm" ? nick : "#c",
  userId: `${nick.toLowerCase()}!${mask}`,
  userName: nick,
  text: "hi",
  attachments: [],
  messageId: `${nick}-${mask}-${Math.random()}`,
});

describe("authorise", () => {
  it("binds a listed nick to the mask it first speaks from; the nick from another mask is a stranger", async () => {
    const p = policy(["Bob"]);
    expect(await authorise(from("bob", "~bob@home"), p, state, ids)).toEqual({ allow: true });
    expect(await authorise(from("BOB", "~bob@home"), p, state, ids)).toEqual({ allow: true });
    const dm = await authorise(from("bob", "~eve@elsewhere"), p, state, ids);
    expect(dm).toMatchObject({ allow: false, borrowed: { name: "Bob", boundTo: "bob!~bob@home" } });
    expect(dm.allow === false && dm.reply).toMatch(/pairing code is/);
    expect(await authorise(from("bob", "~eve@elsewhere", "group"), p, state, ids)).toMatchObject({
      allow: false,
    });
    // Unbinding lets the next speaker under the name be bound instead.
    await ids.unbind("bob", "irc");
    expect(await authorise(from("bob", "~bob@new-home"), p, state, ids)).toEqual({ allow: true });
  });

  it("admits a whole id or a pattern over ids, and nothing else under the same nick", async () => {
    const p = policy(["ann!~ann@home", "cat!*@*.trusted.example"]);
    expect(await authorise(from("ann", "~ann@home"), p, state, ids)).toEqual({ allow: true });
    expect(await authorise(from("ann", "~ann@other"), p, state, ids)).toMatchObject({ allow: false });
    expect(await authorise(from("cat", "~c@box.trusted.example"), p, state, ids)).toEqual({ allow: true });
    expect(await authorise(from("cat", "~c@trusted.example.evil"), p, state, ids)).toMatchObject({
      allow: false,
    });
  });

  it("approves a paired user by their whole id", async () => {
    const p = policy([]);
    const first = await authorise(from("dan", "~dan@home"), p, state, ids);
    const code = first.allow === false ? /code is (\w+)/.exec(first.reply ?? "")?.[1] : undefined;
    expect((await state.approveCode(code ?? "")).ok).toBe(true);
    expect(await authorise(from("dan", "~dan@home"), p, state, ids)).toEqual({ allow: true });
    const other = await authorise(from("dan", "~mallory@home"), p, state, ids);
    expect(other.allow === false && other.reply).toMatch(/pairing code is/);
  });

  it("a Telegram allowlist names ids and @usernames, never a first name anyone may take", async () => {
    const p: AuthPolicy = { ...policy([]), allowed: { telegram: ["4242", "@ann"] } };
    const tg = (id: number, from: { username?: string; first_name: string }) => {
      const m = normaliseMessage(
        { message_id: id, chat: { id, type: "private" }, from: { id, ...from }, text: "hi" },
        { id: 1, username: "iris_bot" },
      );
      if (!m) throw new Error("not normalised");
      return m;
    };
    // Strangers calling themselves by a listed id or @username come first: still strangers.
    expect(await authorise(tg(7, { first_name: "4242" }), p, state, ids)).toMatchObject({ allow: false });
    expect(await authorise(tg(8, { first_name: "@ann" }), p, state, ids)).toMatchObject({ allow: false });
    expect(await authorise(tg(4242, { first_name: "Bob" }), p, state, ids)).toEqual({ allow: true });
    expect(await authorise(tg(9, { username: "ann", first_name: "Ann" }), p, state, ids)).toEqual({
      allow: true,
    });
  });
});
