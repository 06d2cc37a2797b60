// What a new user of an editor runs into (the defects found trying the front ends): the model
// picker keeps the profile's own model after a switch, and `/help` or a mistyped command is
// answered by Iris instead of being sent to the model as a prompt.
import * as acp from "@agentclientprotocol/sdk";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { agentText, editor } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-new-user");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

it("the model picker still offers the profile's own model after switching away, and switches back", async () => {
  const e = editor(fake, dir);
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    const set = await ctx.request(acp.methods.agent.session.setConfigOption, {
      sessionId: s.sessionId,
      configId: "model",
      value: "custom/other-model",
    });
    const picker = set.configOptions.find((o) => o.id === "model");
    const values =
      picker && "options" in picker ? picker.options.map((o) => ("value" in o ? o.value : "")) : [];
    expect(values).toContain("custom/fake-model");
    const back = await ctx.request(acp.methods.agent.session.setConfigOption, {
      sessionId: s.sessionId,
      configId: "model",
      value: "custom/fake-model",
    });
    expect(back.configOptions.find((o) => o.id === "model")).toMatchObject({
      currentValue: "custom/fake-model",
    });
  });
});

it("/help and an unknown /command are answered locally, never sent to the model", async () => {
  const e = editor(fake, dir);
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    expect((await s.prompt("/help")).stopReason).toBe("end_turn");
    expect(agentText(e.updates)).toContain("/compress");
    expect(agentText(e.updates)).toContain("/usage");
    expect((await s.prompt("/frobnicate now")).stopReason).toBe("end_turn");
    expect(agentText(e.updates)).toContain("Unknown command /frobnicate");
    expect(fake.requests).toHaveLength(0);
  });
});
