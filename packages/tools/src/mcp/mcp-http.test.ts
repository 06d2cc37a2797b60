// MCP over HTTP against the real server-everything: streamable HTTP, and the older HTTP+SSE
// transport (chosen with `type: sse`, or reached by the fallback when streamable HTTP fails).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApprovalPolicy } from "../approval/policy.js";
import { dispatchToolCall } from "../dispatch/dispatch.js";
import { ToolRegistry } from "../registry/registry.js";
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
async function serve(mode: "streamableHttp" | "sse"): Promise<number> {
  const port = await freePort();
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
    servers: mcpServersSchema.parse({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a config placeholder, not a template
      web: { url, ...(type ? { type } : {}), headers: { "X-Test": "${TOKEN}" } },
    }),
    env: { TOKEN: "t0k" },
    registry,
  });
  await manager.startAll();
  const status = manager.status()[0];
  const result = await dispatchToolCall(
    registry,
    { name: "mcp__web__echo", argumentsJson: '{"message":"over http"}' },
    {
      signal: new AbortController().signal,
      taskId: "t",
      cwd: process.cwd(),
      progress: () => undefined,
      approve: async () => "deny",
    },
    createApprovalPolicy({ mode: "manual" }),
  );
  return { status, result };
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
