// MCP prompts and resources in the terminal: `/help` lists the prompts,
// `/mcp__everything__args-prompt city=Seoul` sends the server's prompt text as the message, and
// `@everything:<uri>` attaches a resource's text to a message; the same with `iris -p`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { everythingStdio } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";
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

describe("MCP prompts and resources with iris -p", () => {
  it("sends a prompt's text, attaches a resource, and refuses an unknown prompt with exit 2", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      JSON.stringify({
        mcp_servers: {
          everything: everythingStdio(),
          broken: {
            command: process.execPath,
            args: ["-e", "console.error('bad credentials'); process.exit(2)"],
          },
        },
      }),
    );
    const env = { IRIS_HOME: home.home };
    const args = routeArgs(fake.baseUrl, "chat_completions");
    fake.enqueue({ text: "sunny in Seoul" }, { text: "read it" });
    const prompted = await runIris(["-p", "/mcp__everything__args-prompt city=Seoul", ...args], { env });
    // A server that fails to start is reported on stderr and holds nothing up.
    expect(prompted.stderr).toMatch(/iris: warning: MCP server 'broken' failed to start.*bad credentials/);
    expect(prompted.code).toBe(0);
    expect(prompted.stdout).toBe("sunny in Seoul\n");
    expect(JSON.stringify(fake.requests[0]?.body)).toContain("weather in Seoul");

    const uri = "demo://resource/static/document/architecture.md";
    const attached = await runIris(["-p", `summarise @everything:${uri}`, ...args], { env });
    expect(attached.code).toBe(0);
    expect(attached.stdout).toBe("read it\n");
    expect(JSON.stringify(fake.requests[1]?.body)).toContain(
      `<resource server=\\"everything\\" uri=\\"${uri}\\">`,
    );

    const unknown = await runIris(["-p", "/mcp__everything__nonesuch", ...args], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no MCP prompt '/mcp__everything__nonesuch'");
    const missing = await runIris(["-p", "/mcp__everything__args-prompt", ...args], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("needs city=");
    // Nothing was sent for the two refused prompts.
    expect(fake.requests).toHaveLength(2);
  });
});
