import { statSync } from "node:fs";
import { join } from "node:path";
import { openStore, type Store } from "@iris/host";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openGatewayTables } from "../../state/index.js";
import { loadSecret, WebchatAuth } from "./auth.js";
import { WebchatUsers } from "./users.js";

const cookieOf = (setCookie: string) => setCookie.split(";")[0] ?? "";
const SECRET = "s".repeat(32);

let dir: TempDir;
let store: Store;
let ids: WebchatUsers;
beforeEach(async () => {
  dir = tempDir("iris-webchat-auth");
  store = openStore(join(dir.path, "state.db"));
  ids = new WebchatUsers((await openGatewayTables(store)).identities);
});
afterEach(async () => {
  await store.close();
  dir.cleanup();
});

describe("web chat login", () => {
  it("knows each user by their own token, and the name only from it", async () => {
    const ann = (await ids.issue("ann")).token;
    const bob = (await ids.issue("bob")).token;
    const auth = new WebchatAuth(SECRET, ids);
    const a = await auth.login(ann, "127.0.0.1");
    const b = await auth.login(bob, "127.0.0.1");
    if (!a.ok || !b.ok) throw new Error("login failed");
    expect(a.cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect(a.cookie).not.toContain(ann);
    expect(await auth.user(cookieOf(a.cookie))).toBe("ann");
    expect(await auth.user(cookieOf(b.cookie))).toBe("bob");
    // A forged name: at login, or swapped into a cookie; another secret's cookie is nobody.
    expect(await auth.login(ann, "127.0.0.1", "bob")).toMatchObject({ ok: false, status: 403 });
    expect(await auth.login(ann, "127.0.0.1", "ann")).toMatchObject({ ok: true, name: "ann" });
    expect(await auth.user(cookieOf(a.cookie).replace("=ann.", "=bob."))).toBeUndefined();
    expect(await new WebchatAuth("t".repeat(32), ids).user(cookieOf(a.cookie))).toBeUndefined();
  });

  it("ends a user's logins when their token is re-issued or they are removed", async () => {
    const auth = new WebchatAuth(SECRET, ids);
    const r = await auth.login((await ids.issue("ann")).token, "127.0.0.1");
    if (!r.ok) throw new Error("login failed");
    expect(await auth.user(cookieOf(r.cookie))).toBe("ann");
    await ids.issue("ann");
    expect(await auth.user(cookieOf(r.cookie))).toBeUndefined();
  });

  it("limits wrong tokens per client address: a flood from one does not lock out another", async () => {
    let now = 0;
    const ann = (await ids.issue("ann")).token;
    const auth = new WebchatAuth(SECRET, ids, () => now);
    for (let i = 0; i < 10; i++)
      expect(await auth.login("wrong", "10.0.0.9")).toMatchObject({ ok: false, status: 401 });
    expect(await auth.login(ann, "10.0.0.9")).toMatchObject({ ok: false, status: 429 });
    expect(await auth.login(ann, "127.0.0.1")).toMatchObject({ ok: true });
    now += 61_000;
    expect(await auth.login(ann, "10.0.0.9")).toMatchObject({ ok: true });
  });

  it("remembers a bounded number of addresses", async () => {
    const auth = new WebchatAuth(SECRET, ids);
    for (let i = 0; i < 10_050; i++) await auth.login("wrong", `a${i}`);
    expect(auth.trackedAddresses).toBe(10_000);
  });

  it("keeps the secret in the profile, readable by its owner only", () => {
    const file = join(dir.path, "webchat.secret");
    const first = loadSecret(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecret(file)).toBe(first);
    expect(loadSecret(undefined)).not.toBe(first);
  });
});
