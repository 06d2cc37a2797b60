// Image prompts over ACP (SPEC E2, H4): `iris acp` advertises image prompts for a model that is
// not known to be text-only, and an image block of session/prompt reaches the model as an image.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { solidPng } from "@iris/testkit";
import { describe, expect, it } from "vitest";
import { configFor } from "./harness.js";
import { rpc, spawnAcp, spawnFixture } from "./spawn.js";

const fx = spawnFixture();

describe("iris acp and images", () => {
  it("advertises image prompts and sends the PNG upstream", async () => {
    const fake = fx.fake();
    writeFileSync(join(fx.home(), "config.yaml"), configFor(fake));
    const agent = spawnAcp({ IRIS_HOME: fx.home() }, fx.work());
    try {
      const init = await rpc(agent, 0, "initialize", { protocolVersion: 1 });
      expect(
        (init.result?.agentCapabilities as { promptCapabilities?: unknown })?.promptCapabilities,
      ).toMatchObject({
        image: true,
      });
      const created = await rpc(agent, 1, "session/new", { cwd: fx.work(), mcpServers: [] });
      const sessionId = created.result?.sessionId as string;
      const png = solidPng(6, 6).toString("base64");
      fake.enqueue({ text: "a red square" });
      const done = await rpc(agent, 2, "session/prompt", {
        sessionId,
        prompt: [
          { type: "text", text: "what is this?" },
          { type: "image", mimeType: "image/png", data: png },
        ],
      });
      expect(done.result?.stopReason).toBe("end_turn");
      const req = fake.requests.at(-1);
      expect(req?.rejected).toBeUndefined();
      expect(req?.rawBody.toString()).toContain(`data:image/png;base64,${png}`);
    } finally {
      await agent.end();
    }
  });
});
