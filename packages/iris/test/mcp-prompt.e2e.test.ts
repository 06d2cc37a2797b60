// MCP prompts and resources in the terminal: `/help` lists the prompts,
// `/mcp__everything__args-prompt city=Seoul` sends the server's prompt text as the message, and
// `@everything:<uri>` attaches a resource's text to a message.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { everythingStdio } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { routeArgs, tempHome } from "./helpers.js";
import { startPty } from "./pty.js";

// Real server processes start slowly on a loaded machine: generous limits, no timing in the assertions.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

describe("MCP prompts in the chat", () => {
  it("lists the server's prompts in /help and sends one as the message", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      JSON.stringify({ mcp_servers: { everything: everythingStdio() } }),
    );
    fake.enqueue({ text: "sunny in Seoul" }, { text: "read it" });
    const t = startPty(routeArgs(fake.baseUrl, "chat_completions"), { IRIS_HOME: home.home });
    await t.waitFor("› ");
    t.type("/help\r");
    await t.waitFor("/mcp__everything__args-prompt");
    t.type("/mcp__everything__args-prompt city=Seoul\r");
    await t.waitFor("sunny in Seoul");
    t.type("summarise @everything:demo://resource/static/document/architecture.md\r");
    await t.waitFor("read it");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    const sent = JSON.stringify(fake.requests[0]?.body);
    expect(sent).toContain("weather in Seoul");
    const withResource = JSON.stringify(fake.requests[1]?.body);
    expect(withResource).toContain(
      '<resource server=\\"everything\\" uri=\\"demo://resource/static/document/architecture.md\\">',
    );
  });
});
