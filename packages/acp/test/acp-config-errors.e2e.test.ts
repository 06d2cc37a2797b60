// A profile that cannot run, seen through the ACP SDK's own client: the error is not -32000
// "Authentication required" (Iris advertises no auth methods, so an editor would be stuck), but an
// internal error saying what to set and where (SPEC E2).
import * as acp from "@agentclientprotocol/sdk";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { editor } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-config");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

it("a missing provider is a config error naming config.yaml, while no auth method is offered", async () => {
  const e = editor(fake, dir, { configText: "logging: {level: info}\n" });
  await e.run(async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    expect(init.authMethods ?? []).toEqual([]);
    const failed = await ctx
      .buildSession(e.work)
      .start()
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failed).toBeInstanceOf(acp.RequestError);
    const error = failed as acp.RequestError;
    expect(error.code).not.toBe(-32000);
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^Iris is not set up: .*model\.provider and model\.name/);
    expect(error.data).toMatchObject({ kind: "config_error" });
  });
});
