// gateway.platforms.{telegram,discord,slack} in config.yaml, each checked by its own schema when
// `iris gateway run` loads the profile: a wrong value stops the start (exit 2) with the file, the
// line and the key it is at, and why; nothing connects.
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayRun } from "../src/run.js";
import { writeGatewayProfile } from "./profile.js";

describe("chat platforms' config sections", () => {
  let fake: FakeLlm;
  let dir: TempDir;
  beforeAll(async () => {
    fake = await startFakeLlm();
    dir = tempDir("iris-gw-config");
  });
  afterAll(async () => {
    await fake.close();
    dir.cleanup();
  });

  it("names the line and key of each wrong value, and starts nothing", async () => {
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      "    telegram:",
      "      webhook: {url: not-a-url}",
      "    discord:",
      "      allowed_users: [min]",
      "    slack:",
      "      mode: rtm",
    ]);
    let err = "";
    const code = await gatewayRun({
      env: { IRIS_HOME: dir.path, IRIS_LOCK_DIR: join(dir.path, "locks") },
      out: () => {},
      err: (s) => {
        err += s;
      },
      until: Promise.resolve(),
      cwd: join(dir.path, "work"),
    });
    expect(code, err).toBe(2);
    // The config's lines 1-2 are the model and its provider (writeGatewayProfile).
    expect(err).toMatch(
      /config\.yaml:6:\d+: gateway\.platforms\.telegram\.webhook\.url: expected an http\(s\) URL/,
    );
    expect(err).toMatch(
      /config\.yaml:8:\d+: gateway\.platforms\.discord\.allowed_users\[0\]: expected a Discord user id .*never a name, got "min"/,
    );
    expect(err).toMatch(
      /config\.yaml:10:\d+: gateway\.platforms\.slack\.mode: expected one of "socket", "http", got "rtm"/,
    );
    expect(err).not.toContain("running (pid");
  }, 60_000);
});
