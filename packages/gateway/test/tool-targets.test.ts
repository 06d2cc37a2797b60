// Where send_message may post: configured channels and users, paired users, and
// every chat the gateway has already talked in — which is how a web chat user or room (no
// configured list) and a user let in by allow_all are reached. Real store, temp file.
import { join } from "node:path";
import { gatewaySchema, openStore, type Store } from "@iris/host";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import irc from "../src/platforms/irc/plugin.js";
import { openCronState } from "../src/state/cron-open.js";
import { type GatewayState, openGatewayTables } from "../src/state/index.js";
import { configuredTargets, type GatewayToolPort } from "../src/tools.js";

let dir: TempDir;
let store: Store;
let state: GatewayState;
beforeEach(async () => {
  dir = tempDir("iris-gw-targets");
  store = openStore(join(dir.path, "state.db"));
  state = (await openGatewayTables(store)).state;
});
afterEach(async () => {
  await store.close();
  dir.cleanup();
});

function port(config: { platforms: { irc: unknown } }): GatewayToolPort {
  const ircConfig = irc.schema.parse(config.platforms.irc);
  return {
    config: gatewaySchema.parse({}),
    state,
    cronState: () => openCronState(store),
    platforms: () => ["irc", "webchat"],
    targets: (platform) => (platform === "irc" ? irc.sendTargets(ircConfig) : []),
    post: async () => {},
    postFile: async () => true,
    maxFileBytes: () => undefined,
    currentChat: () => undefined,
  };
}

describe("send_message targets", () => {
  it("include the chats the gateway has talked in, per platform, besides the configured ones", async () => {
    const p = port({ platforms: { irc: { server: "127.0.0.1", nick: "iris", channels: ["#news"] } } });
    const s = await store.createSession({ source: "gateway" });
    for (const key of ["webchat:dm:ann", "webchat:group:#team", "webchat:dm:odd%3Aname", "irc:dm:bob"])
      await p.state.setChatSession(key, s.id);
    expect((await configuredTargets(p, "webchat")).sort()).toEqual(["#team", "ann", "odd:name"]);
    expect((await configuredTargets(p, "irc")).sort()).toEqual(["#news", "bob"]);
  });

  it("are only the configured ones before anyone has written", async () => {
    const p = port({ platforms: { irc: { server: "127.0.0.1", nick: "iris", channels: ["#news"] } } });
    expect(await configuredTargets(p, "irc")).toEqual(["#news"]);
    expect(await configuredTargets(p, "webchat")).toEqual([]);
  });

  it("name the nick of an allowed mask, and no pattern over nicks", async () => {
    const irc = { server: "127.0.0.1", nick: "iris", allowed_users: ["ann", "bob!~bob@home", "cat*!*@*"] };
    expect((await configuredTargets(port({ platforms: { irc } }), "irc")).sort()).toEqual(["ann", "bob"]);
  });
});
