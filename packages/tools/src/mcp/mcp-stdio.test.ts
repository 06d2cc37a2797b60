// MCP over stdio against the real servers from npm: server-everything's tools as Iris tools
// (namespaced, JSON Schema validated, approval-gated, sealed errors), a server killed mid-session
// and revived with its tools, a server that fails to start (reported with its stderr), and
// server-filesystem's access rules.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApprovalPolicy } from "../approval/policy.js";
import type { ApprovalAnswer, ToolContext } from "../define.js";
import { dispatchToolCall } from "../dispatch/dispatch.js";
import { ToolRegistry } from "../registry/registry.js";
import { localWorkspace } from "../workspace/local.js";
import { type McpServerConfig, mcpServersSchema } from "./config.js";
import { McpConnection } from "./connection.js";
import { McpManager } from "./manager.js";
import { listPromptCommands, promptText } from "./prompts.js";
import { attachResources } from "./resources.js";
import { everythingStdio, filesystemStdio } from "./test-servers.js";

// Real server processes start slowly on a loaded machine: generous limits, no timing in the assertions.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let dir: TempDir;
let manager: McpManager | undefined;
beforeEach(() => {
  dir = tempDir("iris-mcp");
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  dir.cleanup();
});

function servers(raw: Record<string, unknown>): Record<string, McpServerConfig> {
  return mcpServersSchema.parse(raw);
}

function start(raw: Record<string, unknown>, env: Record<string, string> = {}) {
  const registry = new ToolRegistry({ logger: { warn: () => undefined } });
  manager = new McpManager({ servers: servers(raw), env, registry, backoffMs: { first: 50, max: 200 } });
  return { registry, manager };
}

function ctx(answer: ApprovalAnswer = "once", asked: string[] = []): ToolContext {
  return {
    signal: new AbortController().signal,
    taskId: "t1",
    workspace: localWorkspace(),
    cwd: dir.path,
    progress: () => undefined,
    approve: async (r) => {
      asked.push(r.patternKey);
      return answer;
    },
  };
}
const policy = () => createApprovalPolicy({ mode: "manual" });

describe("MCP over stdio (server-everything)", () => {
  it("registers the server's tools under mcp__<server>__<tool> and calls them through the dispatcher", async () => {
    const { registry, manager } = start({ everything: { ...everythingStdio(), exclude_tools: ["get-env"] } });
    await manager.startAll();
    const [status] = manager.status();
    expect(status?.state).toBe("ready");
    expect(status?.tools).toContain("mcp__everything__echo");
    expect(status?.tools).not.toContain("mcp__everything__get-env");
    const echo = registry.get("mcp__everything__echo");
    expect(echo?.toolset).toBe("mcp_everything");
    // echo is annotated read-only: no approval, no receipt; the toggle is not.
    expect(echo?.effect).toBe("read");
    expect(registry.get("mcp__everything__toggle-simulated-logging")?.effect).toBe("communicate");

    const asked: string[] = [];
    const ok = await dispatchToolCall(
      registry,
      { name: "mcp__everything__echo", argumentsJson: JSON.stringify({ message: "héllo 한국어" }) },
      ctx("once", asked),
      policy(),
    );
    expect(ok.isError).toBe(false);
    expect(ok.content).toContain("héllo 한국어");
    expect(asked).toEqual([]);

    const bad = await dispatchToolCall(
      registry,
      { name: "mcp__everything__echo", argumentsJson: JSON.stringify({ mesage: "typo" }) },
      ctx(),
      policy(),
    );
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content).error).toMatch(/invalid arguments: 'message'/);

    const toggle = { name: "mcp__everything__toggle-simulated-logging", argumentsJson: "{}" };
    const denied = await dispatchToolCall(registry, toggle, ctx("deny", asked), policy());
    expect(JSON.parse(denied.content)).toMatchObject({ denied: true });
    const allowed = await dispatchToolCall(registry, toggle, ctx("once", asked), policy());
    expect(allowed.isError).toBe(false);
    expect(asked).toEqual([
      "mcp:everything:toggle-simulated-logging",
      "mcp:everything:toggle-simulated-logging",
    ]);
  });

  it("follows the server's tools/list_changed: a tool it registers after start-up is registered too", async () => {
    const registry = new ToolRegistry({ logger: { warn: () => undefined } });
    let changed!: () => void;
    const sawLateTool = new Promise<void>((resolve) => {
      changed = resolve;
    });
    manager = new McpManager({
      servers: servers({ everything: everythingStdio() }),
      env: {},
      registry,
      onChange: () => {
        if (registry.has("mcp__everything__simulate-research-query")) changed();
      },
    });
    await manager.startAll();
    await sawLateTool;
    expect(manager.status()[0]?.tools).toContain("mcp__everything__simulate-research-query");
  });

  it("a stdio server killed mid-session is restarted and its tools come back", async () => {
    const { registry, manager } = start({ everything: everythingStdio() });
    await manager.startAll();
    const conn = manager.connections.get("everything");
    const pid = conn?.pid;
    expect(pid).toBeGreaterThan(0);
    const down = conn?.until(["restarting"]);
    process.kill(pid as number, "SIGKILL");
    expect(await down).toBe("restarting");
    // A call while it is down fails at once with a message that says so.
    const during = await dispatchToolCall(
      registry,
      { name: "mcp__everything__echo", argumentsJson: '{"message":"x"}' },
      ctx(),
      createApprovalPolicy({ mode: "off" }),
    );
    expect(during.isError).toBe(true);
    expect(JSON.parse(during.content).error).toMatch(/MCP server 'everything' is not running/);

    expect(await conn?.until(["ready"])).toBe("ready");
    expect(conn?.restarts).toBe(1);
    expect(conn?.pid).not.toBe(pid);
    expect(manager.status()[0]?.tools).toContain("mcp__everything__echo");
    const after = await dispatchToolCall(
      registry,
      { name: "mcp__everything__echo", argumentsJson: '{"message":"back"}' },
      ctx(),
      createApprovalPolicy({ mode: "off" }),
    );
    expect(after).toMatchObject({ isError: false });
    expect(after.content).toContain("back");
  });

  it("a server that fails to start is reported with its stderr tail; one that hangs does not hold the start-up", async () => {
    const { manager } = start({
      broken: {
        command: process.execPath,
        args: ["-e", "console.error('boom: TOKEN missing'); process.exit(3)"],
      },
      hanging: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], timeout_s: 600 },
      off: { ...everythingStdio(), enabled: false },
    });
    await manager.startWithin(300);
    const byName = Object.fromEntries(manager.status().map((s) => [s.name, s]));
    expect(byName.hanging?.state).toBe("starting");
    expect(byName.off?.state).toBe("disabled");
    expect(await manager.connections.get("broken")?.until(["failed", "restarting"])).toMatch(
      /failed|restarting/,
    );
    expect(manager.connections.get("broken")?.lastError).toContain("boom: TOKEN missing");
  });

  it("a server that fails at start is tried again with backoff and joins once it comes up", async () => {
    // Fails the first time (as a server whose dependency is not up yet), then runs server-everything.
    const marker = join(dir.path, "started-once");
    const wrapper = join(dir.path, "flaky.mjs");
    writeFileSync(
      wrapper,
      [
        'import { existsSync, writeFileSync } from "node:fs";',
        'import { pathToFileURL } from "node:url";',
        "const [marker, bin] = process.argv.slice(2);",
        'if (!existsSync(marker)) { writeFileSync(marker, ""); console.error("database not up yet"); process.exit(1); }',
        'process.argv.splice(2, 2, "stdio");',
        "await import(pathToFileURL(bin).href);",
      ].join("\n"),
    );
    const bin = everythingStdio().args[0] as string;
    const { registry, manager } = start({
      flaky: { command: process.execPath, args: [wrapper, marker, bin] },
    });
    await manager.startAll();
    const conn = manager.connections.get("flaky");
    expect(conn?.state).toMatch(/restarting|starting|ready/);
    expect(conn?.lastError).toContain("database not up yet");
    expect(await conn?.until(["ready", "failed"])).toBe("ready");
    expect(conn?.restarts).toBe(1);
    expect(registry.has("mcp__flaky__echo")).toBe(true);
  });

  it("gives up after the stated number of failed attempts in a row, with the last error", async () => {
    const conn = new McpConnection({
      name: "broken",
      config: servers({
        broken: { command: process.execPath, args: ["-e", "console.error('no key'); process.exit(1)"] },
      }).broken as McpServerConfig,
      backoffMs: { first: 20, max: 40 },
      maxAttempts: 3,
    });
    await conn.start();
    expect(await conn.until(["failed"])).toBe("failed");
    expect(conn.restarts).toBe(2);
    expect(conn.lastError).toMatch(/^gave up after 3 attempts in a row: .*no key/);
    await conn.close();
  });

  it("expands placeholders from the profile environment and names a missing one", async () => {
    const { registry, manager } = start(
      {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a config placeholder, not a template
        everything: { ...everythingStdio(), env: { GREETING: "${IRIS_TEST_GREETING}" } },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a config placeholder, not a template
        missing: { ...everythingStdio(), env: { KEY: "${NOT_SET_ANYWHERE}" } },
      },
      { IRIS_TEST_GREETING: "hi-from-env" },
    );
    await manager.startAll();
    const byName = Object.fromEntries(manager.status().map((s) => [s.name, s]));
    expect(byName.everything?.state).toBe("ready");
    const env = await dispatchToolCall(
      registry,
      { name: "mcp__everything__get-env", argumentsJson: "{}" },
      ctx(),
      createApprovalPolicy({ mode: "off" }),
    );
    expect(env.content).toContain("hi-from-env");
    expect(byName.missing?.state).toBe("failed");
    expect(byName.missing?.lastError).toMatch(
      /mcp_servers\.missing\.env\.KEY: \$\{NOT_SET_ANYWHERE\} is not set/,
    );
  });
});

describe("MCP over stdio (server-filesystem)", () => {
  it("reads inside its allowed folder and returns the server's error outside it", async () => {
    const root = join(dir.path, "allowed");
    mkdirSync(root);
    writeFileSync(join(root, "note.txt"), "inside the allowed folder\n");
    const { registry, manager } = start({ fs: filesystemStdio(root) });
    await manager.startAll();
    expect(manager.status()[0]?.state).toBe("ready");
    const names = manager.status()[0]?.tools ?? [];
    const read =
      names.find((n) => n === "mcp__fs__read_text_file") ?? names.find((n) => n === "mcp__fs__read_file");
    expect(read).toBeDefined();
    const off = createApprovalPolicy({ mode: "off" });
    const inside = await dispatchToolCall(
      registry,
      { name: read as string, argumentsJson: JSON.stringify({ path: join(root, "note.txt") }) },
      ctx(),
      off,
    );
    expect(inside).toMatchObject({ isError: false });
    expect(inside.content).toContain("inside the allowed folder");
    const outside = await dispatchToolCall(
      registry,
      { name: read as string, argumentsJson: JSON.stringify({ path: "/etc/hostname" }) },
      ctx(),
      off,
    );
    expect(outside.isError).toBe(true);
    expect(outside.content).toMatch(/denied|outside/i);
  });
});

describe("MCP prompts (server-everything)", () => {
  it("lists prompts as /mcp__server__prompt commands and turns one into message text", async () => {
    const { manager } = start({ everything: everythingStdio() });
    await manager.startAll();
    const commands = await listPromptCommands(manager);
    const simple = commands.find((c) => c.command === "/mcp__everything__simple-prompt");
    expect(simple).toBeDefined();
    const withArgs = commands.find((c) => c.command === "/mcp__everything__args-prompt");
    expect(withArgs?.arguments).toContainEqual({ name: "city", required: true });
    expect(await promptText(manager, "/mcp__everything__args-prompt city=Seoul")).toContain("Seoul");
    await expect(promptText(manager, "/mcp__everything__args-prompt")).rejects.toThrow(/needs city=/);
    expect(await promptText(manager, "/mcp__everything__nonesuch")).toBeUndefined();
  });
});

describe("MCP resources with @ (server-everything)", () => {
  it("appends a named resource's text; leaves other @ words alone; names one that cannot be read", async () => {
    const { manager } = start({ everything: everythingStdio() });
    await manager.startAll();
    const uri = "demo://resource/static/document/architecture.md";
    const text = await attachResources(manager, `summarise @everything:${uri} and mail ann@example.com`);
    expect(
      text.startsWith(
        `summarise @everything:${uri} and mail ann@example.com\n\n<resource server="everything"`,
      ),
    ).toBe(true);
    expect(text.length).toBeGreaterThan(200);
    expect(await attachResources(manager, "@nobody:demo://x stays")).toBe("@nobody:demo://x stays");
    await expect(attachResources(manager, "@everything:demo://resource/nope")).rejects.toThrow(
      /@everything:demo:\/\/resource\/nope could not be read/,
    );
  });
});
