// A gateway whose second platform cannot start (the web chat's port is taken) after the first one
// (IRC) has: `iris gateway run` reports it and exits 1, and the IRC bot that had connected quits
// rather than staying online without locks, on a closed store, keeping the process alive.
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import {
  type FakeLlm,
  type Ngircd,
  skipWithoutNgircd,
  startFakeLlm,
  startNgircd,
  type TempDir,
  TestIrcClient,
  tempDir,
} from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayRun } from "../src/run.js";
import { writeGatewayProfile } from "./profile.js";

const skip = skipWithoutNgircd();

describe.skipIf(skip)("a gateway that fails to start one platform", () => {
  let ircd: Ngircd;
  let fake: FakeLlm;
  let dir: TempDir;
  let taken: Server;
  beforeEach(async () => {
    [ircd, fake] = await Promise.all([startNgircd(["#test"]), startFakeLlm()]);
    dir = tempDir("iris-gw-start");
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await Promise.all([ircd.stop(), fake.close()]);
    dir.cleanup();
  });

  it("exits 1 and takes the platform that had started down with it", async () => {
    const port = (taken.address() as { port: number }).port;
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: irisbot, channels: ["#test"]}`,
      `    webchat: {port: ${port}, bot_name: iris}`,
    ]);
    const watcher = await TestIrcClient.connect(ircd.port, "watcher");
    await watcher.join("#test");
    let err = "";
    const code = await gatewayRun({
      env: { IRIS_HOME: dir.path, IRIS_LOCK_DIR: join(dir.path, "locks") },
      out: () => {},
      err: (s) => {
        err += s;
      },
      until: new Promise(() => {}),
      cwd: join(dir.path, "work"),
    });
    expect(code, err).toBe(1);
    expect(err).toMatch(/EADDRINUSE|in use/);
    await watcher.waitFor((l) => l.command === "JOIN" && l.nick === "irisbot", 10_000, true);
    await watcher.waitFor((l) => l.command === "QUIT" && l.nick === "irisbot", 10_000, true);
    await watcher.quit();
  }, 60_000);
});
