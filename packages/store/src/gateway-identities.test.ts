// The gateway's identities (migration 0025): per-user login tokens kept as hashes only, a
// re-issued or removed user's old token and logins end, and a name binds to its first identity.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayIdentities } from "./gateway-identities.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

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

describe("logins", () => {
  it("gives each user their own token, stores only its hash, and knows the user by it", () => {
    const ann = ids.issueLoginToken("webchat", "ann");
    const bob = ids.issueLoginToken("webchat", "bob");
    expect(ann.replaced).toBe(false);
    expect(ann.token).not.toBe(bob.token);
    expect(ids.login("webchat", ann.token)?.name).toBe("ann");
    expect(ids.login("webchat", bob.token)?.name).toBe("bob");
    expect(ids.login("webchat", `${ann.token}x`)).toBeUndefined();
    expect(ids.login("webchat", "")).toBeUndefined();
    expect(ids.logins("webchat").map((u) => u.name)).toEqual(["ann", "bob"]);
    expect(ids.hasLogin("webchat", "ann")).toBe(true);
    expect(ids.hasLogin("webchat", "cat")).toBe(false);
    // Another platform's logins are its own.
    expect(ids.login("other", ann.token)).toBeUndefined();
    expect(ids.logins("other")).toEqual([]);
    store.close();
    const file = readFileSync(join(dir, "state.db"));
    expect(file.includes(ann.token)).toBe(false);
    store = openStore(join(dir, "state.db"));
    ids = new GatewayIdentities(store.db);
  });

  it("ends the old token and its logins when the user is re-issued or removed", () => {
    const first = ids.issueLoginToken("webchat", "ann");
    const login = ids.login("webchat", first.token);
    expect(login && ids.holdsLogin("webchat", "ann", login.tokenId)).toBe(true);
    const second = ids.issueLoginToken("webchat", "ann");
    expect(second.replaced).toBe(true);
    expect(ids.login("webchat", first.token)).toBeUndefined();
    expect(login && ids.holdsLogin("webchat", "ann", login.tokenId)).toBe(false);
    expect(ids.removeLogin("webchat", "ann")).toBe(true);
    expect(ids.login("webchat", second.token)).toBeUndefined();
    expect(ids.removeLogin("webchat", "ann")).toBe(false);
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
