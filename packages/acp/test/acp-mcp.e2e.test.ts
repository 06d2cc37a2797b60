// MCP prompts in an editor (issue 20, T6): the profile's MCP prompts join the session's slash
// commands once the servers are up, `/mcp__<server>__<prompt> name=value` sends the prompt's text
// as the message, `@server:uri` attaches a resource, and a bad command is answered, not sent.

import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { everythingStdio } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentText, editor, ofKind, waitFor } from "./harness.js";

// A real server process starts slowly on a loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-mcp");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

describe("MCP prompts and resources through ACP", () => {
  it("offers the prompts as commands and expands them and resources into the message", async () => {
    const e = editor(fake, dir, {
      config: `mcp_servers: ${JSON.stringify({ everything: everythingStdio() })}`,
    });
    fake.enqueue({ text: "sunny in Seoul" }, { text: "read it" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const commandsOf = () =>
        ofKind(e.updates, "available_commands_update").map((u) => u.availableCommands.map((c) => c.name));
      await waitFor(e.updates, () =>
        commandsOf().some((names) => names.includes("mcp__everything__args-prompt")),
      );
      const last = ofKind(e.updates, "available_commands_update").at(-1)?.availableCommands ?? [];
      expect(last.slice(0, 5).map((c) => c.name)).toEqual(["compress", "usage", "model", "new", "help"]);
      expect(last.find((c) => c.name === "mcp__everything__args-prompt")?.input).toEqual({
        hint: expect.stringContaining("city=…"),
      });

      const prompted = await s.prompt("/mcp__everything__args-prompt city=Seoul");
      expect(prompted.stopReason).toBe("end_turn");
      expect(JSON.stringify(fake.requests[0]?.body)).toContain("weather in Seoul");

      const attached = await s.prompt(
        "summarise @everything:demo://resource/static/document/architecture.md",
      );
      expect(attached.stopReason).toBe("end_turn");
      expect(JSON.stringify(fake.requests[1]?.body)).toContain(
        '<resource server=\\"everything\\" uri=\\"demo://resource/static/document/architecture.md\\">',
      );

      // A required argument missing: said in the editor, nothing sent to the model.
      const before = e.updates.length;
      const bad = await s.prompt("/mcp__everything__args-prompt");
      expect(bad.stopReason).toBe("end_turn");
      expect(agentText(e.updates.slice(before))).toMatch(/needs city=/);
      expect(fake.requests).toHaveLength(2);
    });
    expect(fake.violations).toEqual([]);
  });
});
