// The gateway's identities (migration 0025): per-user web chat tokens kept as hashes only, a
// re-issued or removed user's old token and logins end, and a name binds to its first identity.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayIdentities } from "./gateway-identities.js";
import { openStore, type Store } from "./store.js";

let dir: string;
let store: Store;
let ids: GatewayIdentities;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-gw-ids-"));
  store = openStore(join(dir, "state.db"));
  ids = new GatewayIdentities(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("web chat users", () => {
  it("gives each user their own token, stores only its hash, and knows the user by it", () => {
    const ann = ids.issueWebchatToken("ann");
    const bob = ids.issueWebchatToken("bob");
    expect(ann.replaced).toBe(false);
    expect(ann.token).not.toBe(bob.token);
    expect(ids.webchatLogin(ann.token)?.name).toBe("ann");
    expect(ids.webchatLogin(bob.token)?.name).toBe("bob");
    expect(ids.webchatLogin(`${ann.token}x`)).toBeUndefined();
    expect(ids.webchatLogin("")).toBeUndefined();
    expect(ids.webchatUsers().map((u) => u.name)).toEqual(["ann", "bob"]);
    expect(ids.hasWebchatUser("ann")).toBe(true);
    expect(ids.hasWebchatUser("cat")).toBe(false);
    store.close();
    const file = readFileSync(join(dir, "state.db"));
    expect(file.includes(ann.token)).toBe(false);
    store = openStore(join(dir, "state.db"));
    ids = new GatewayIdentities(store.db);
  });

  it("ends the old token and its logins when the user is re-issued or removed", () => {
    const first = ids.issueWebchatToken("ann");
    const login = ids.webchatLogin(first.token);
    expect(login && ids.webchatHolds("ann", login.tokenId)).toBe(true);
    const second = ids.issueWebchatToken("ann");
    expect(second.replaced).toBe(true);
    expect(ids.webchatLogin(first.token)).toBeUndefined();
    expect(login && ids.webchatHolds("ann", login.tokenId)).toBe(false);
    expect(ids.removeWebchatUser("ann")).toBe(true);
    expect(ids.webchatLogin(second.token)).toBeUndefined();
    expect(ids.removeWebchatUser("ann")).toBe(false);
  });
});

describe("bindings", () => {
  it("binds a name to the first identity that spoke, until unbound", () => {
    expect(ids.bind("irc", "bob", "bob!~bob@localhost")).toBe("bob!~bob@localhost");
    expect(ids.bind("irc", "bob", "bob!~eve@elsewhere")).toBe("bob!~bob@localhost");
    expect(ids.bindings()).toMatchObject([{ platform: "irc", name: "bob", identity: "bob!~bob@localhost" }]);
    expect(ids.unbind("bob", "irc")).toBe(1);
    expect(ids.bind("irc", "bob", "bob!~eve@elsewhere")).toBe("bob!~eve@elsewhere");
  });
});
