// The workspace as an ACP session config option (SPEC T6), with a real engine (podman system
// service): offered when the profile configures more than this machine, switched by
// session/set_config_option (the model's next command runs in the container), and an engine that
// is gone refused with the socket named while the session stays where it was.
import * as acp from "@agentclientprotocol/sdk";
import {
  type FakeLlm,
  type Podman,
  skipWithoutPodman,
  startFakeLlm,
  startPodman,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editor } from "./harness.js";

describe.skipIf(skipWithoutPodman())("ACP: the workspace config option", () => {
  let engine: Podman;
  let fake: FakeLlm;
  let dir: TempDir;
  beforeAll(async () => {
    engine = await startPodman();
    fake = await startFakeLlm();
    dir = tempDir("iris-acp-ws");
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    dir?.cleanup();
    await engine?.close();
  });

  it("offers local and docker, switches to docker, and refuses an engine that is gone", async () => {
    const e = editor(fake, dir, {
      config: `approvals: {mode: off}\nterminal:\n  docker: {image: '${engine.image}', socket: '${engine.socket}'}\n`,
    });
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "wc -l < /etc/passwd" } }] },
      { text: "counted" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const offered = s.newSessionResponse.configOptions?.find((o) => o.id === "workspace");
      expect(offered).toMatchObject({ type: "select", currentValue: "local" });
      expect((offered as { options: { value: string }[] }).options.map((o) => o.value)).toEqual([
        "local",
        "docker",
      ]);
      const set = await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId: s.sessionId,
        configId: "workspace",
        value: "docker",
      });
      expect(set.configOptions.find((o) => o.id === "workspace")).toMatchObject({ currentValue: "docker" });
      await s.prompt("count users");
      // The test image's passwd holds root alone; this machine's holds many.
      expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain('"1\\n[exit code: 0]');
      await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId: s.sessionId,
        configId: "workspace",
        value: "local",
      });
      await engine.stop();
      await expect(
        ctx.request(acp.methods.agent.session.setConfigOption, {
          sessionId: s.sessionId,
          configId: "workspace",
          value: "docker",
        }),
      ).rejects.toThrow(`socket ${engine.socket}`);
    });
  }, 90_000);
});
