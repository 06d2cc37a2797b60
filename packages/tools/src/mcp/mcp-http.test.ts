// MCP over HTTP against the real server-everything: streamable HTTP, and the older HTTP+SSE
// transport (chosen with `type: sse`, or reached by the fallback when streamable HTTP fails); a
// server that goes away is reconnected with backoff once it is back.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApprovalPolicy } from "../approval/policy.js";
import { dispatchToolCall } from "../dispatch/dispatch.js";
import { ToolRegistry } from "../registry/registry.js";
import { localWorkspace } from "../workspace/local.js";
import { mcpServersSchema } from "./config.js";
import { McpManager } from "./manager.js";
import { binScript } from "./test-servers.js";

// Real server processes start slowly on a loaded machine: generous limits, no timing in the assertions.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let child: ChildProcess | undefined;
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  child = undefined;
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Starts server-everything in `mode` and resolves once it says it listens. */
async function serve(mode: "streamableHttp" | "sse", onPort?: number): Promise<number> {
  const port = onPort ?? (await freePort());
  const proc = spawn(process.execPath, [binScript("@modelcontextprotocol/server-everything"), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening|running/i.test(seen) && seen.includes(String(port))) resolve();
    };
    proc.stderr?.on("data", onData);
    proc.stdout?.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
  return port;
}

async function echoThrough(url: string, type?: "http" | "sse") {
  const registry = new ToolRegistry({ logger: { warn: () => undefined } });
  manager = new McpManager({
    // Retries keep going however slowly the server comes back on this machine.
    backoffMs: { first: 100, max: 500 },
    maxAttempts: 1_000_000,
    servers: mcpServersSchema.parse({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a config placeholder, not a template
      web: { url, ...(type ? { type } : {}), headers: { "X-Test": "${TOKEN}" } },
    }),
    env: { TOKEN: "t0k" },
    registry,
  });
  await manager.startAll();
  const status = manager.status()[0];
  const result = await echo(registry, "over http");
  return { status, result, registry };
}

function echo(registry: ToolRegistry, message: string) {
  return dispatchToolCall(
    registry,
    { name: "mcp__web__echo", argumentsJson: JSON.stringify({ message }) },
    {
      signal: new AbortController().signal,
      taskId: "t",
      workspace: localWorkspace(),
      cwd: process.cwd(),
      progress: () => undefined,
      approve: async () => "deny",
    },
    createApprovalPolicy({ mode: "manual" }),
  );
}

async function stopServer(): Promise<void> {
  const proc = child;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGKILL");
  await exited;
  child = undefined; // gone: afterEach has nothing to stop
}

describe("MCP over HTTP (server-everything)", () => {
  it("streamable HTTP: tools listed and called", async () => {
    const port = await serve("streamableHttp");
    const { status, result } = await echoThrough(`http://127.0.0.1:${port}/mcp`, "http");
    expect(status).toMatchObject({ state: "ready", transport: "http" });
    expect(status?.tools).toContain("mcp__web__get-sum");
    expect(result).toMatchObject({ isError: false });
    expect(result.content).toContain("over http");
  });

  it("an older HTTP+SSE server is reached by the fallback when no type is given", async () => {
    const port = await serve("sse");
    const { status, result } = await echoThrough(`http://127.0.0.1:${port}/sse`);
    expect(status?.state).toBe("ready");
    expect(result.content).toContain("over http");
  });
});

describe("an HTTP server that drops", () => {
  it("is noticed, reported to a call, and reconnected with its tools once it is back", async () => {
    const port = await serve("streamableHttp");
    const { registry } = await echoThrough(`http://127.0.0.1:${port}/mcp`, "http");
    const conn = manager?.connections.get("web");
    expect(conn?.state).toBe("ready");
    await stopServer();
    // The model's next call gets a clear error, and the connection goes to reconnecting.
    const during = await echo(registry, "while down");
    expect(during.isError).toBe(true);
    expect(JSON.parse(during.content).error).toMatch(/MCP server 'web' (cannot be reached|is not running)/);
    expect(await conn?.until(["restarting", "starting", "failed"])).not.toBe("failed");
    expect(conn?.lastError).toBeDefined();
    // The server comes back on the same port (a restart, so a new MCP session).
    await serve("streamableHttp", port);
    expect(await conn?.until(["ready", "failed"])).toBe("ready");
    expect(conn?.restarts).toBeGreaterThan(0);
    expect(manager?.status()[0]?.tools).toContain("mcp__web__echo");
    const after = await echo(registry, "back again");
    expect(after).toMatchObject({ isError: false });
    expect(after.content).toContain("back again");
  });
});
