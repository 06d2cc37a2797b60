// The official WebSocketClient as the adapter runs it on Node 20 (socket.ts): a route that goes
// silent is found by the protocol ping and reconnected, the client writes nothing to the console, and
// the browser globals it needs are there only while it runs.
import { getLogger } from "@iris/llm";
import { FakeMattermost, tempDir } from "@iris/testkit";
import { afterAll, describe, expect, it } from "vitest";
import type { InboundMessage } from "../src/message.js";
import { MattermostAdapter } from "../src/platforms/mattermost/adapter.js";
import { until } from "./e2e-gateway.js";

const TOKEN = "mm-socket-secret-token";

describe("mattermost socket on Node 20", () => {
  const files = tempDir("iris-mm-socket");
  let mm: FakeMattermost | undefined;
  let adapter: MattermostAdapter | undefined;
  afterAll(async () => {
    await adapter?.stop();
    await mm?.close();
    files.cleanup();
  });

  it("finds a silent route by its ping, reconnects, and writes nothing to the console", async () => {
    const fake = await FakeMattermost.start({ token: TOKEN });
    mm = fake;
    const min = fake.addUser("min");
    const dm = fake.dm(min);
    // What reaches the console (stdout) while the client runs; its own lines must go to the logger.
    const written: string[] = [];
    const { log, warn } = console;
    console.log = console.warn = (...parts: unknown[]) => void written.push(parts.join(" "));
    try {
      const inbox: InboundMessage[] = [];
      const a = new MattermostAdapter({
        url: fake.url,
        token: TOKEN,
        tokenEnv: "MATTERMOST_TOKEN",
        sinceFile: `${files.path}/since`,
        filesDir: `${files.path}/files`,
        logger: getLogger({ component: "test" }),
        pingMs: 200,
      });
      adapter = a;
      await a.start((m) => inbox.push(m));
      expect(typeof (globalThis as { WebSocket?: unknown }).WebSocket).toBe("undefined");
      expect(typeof (globalThis as { CloseEvent?: unknown }).CloseEvent).toBe("undefined");
      const opened = fake.connections;
      fake.setDeaf(true);
      await until(
        () => fake.connections,
        (n) => n > opened,
        "a reconnect after the silent route",
      );
      fake.setDeaf(false);
      fake.userPosts({ channel: dm, user: min, message: "are you back?" });
      await until(
        () => inbox.map((m) => m.text),
        (t) => t.includes("are you back?"),
        "the post after the reconnect",
      );
    } finally {
      console.log = log;
      console.warn = warn;
    }
    expect(written).toEqual([]);
  }, 60_000);
});
