// `iris mcp serve` driven by the MCP SDK's own client over stdio: the built bin, a temp home with
// one stored conversation; search finds it, memory written through it lands in MEMORY.md.
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IRIS_BIN, tempHome } from "./helpers.js";

// Real server processes start slowly on a loaded machine: generous limits, no timing in the assertions.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let home: ReturnType<typeof tempHome>;
let client: Client | undefined;
beforeEach(() => {
  home = tempHome();
  chmodSync(home.home, 0o700);
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  home.cleanup();
});

const textOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]?.text ?? "{}");

describe("iris mcp serve", () => {
  it("answers the SDK client: tools, session search, memory read and add", async () => {
    const store = openStore(join(home.home, "state.db"));
    const s = await store.createSession({
      source: "cli",
      cwd: home.home,
      systemPrompt: "p",
      model: "m",
      provider: "p",
    });
    await store.appendNode(s.id, {
      kind: "message",
      message: { role: "user", content: "the zanzibar deployment failed" },
    });
    await store.close();

    client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [IRIS_BIN, "mcp", "serve"],
        env: { IRIS_HOME: home.home, PATH: process.env.PATH ?? "" },
        stderr: "pipe",
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["memory_add", "memory_read", "session_search"]);

    const found = textOf(await client.callTool({ name: "session_search", arguments: { query: "zanzibar" } }));
    expect(found.results[0]).toMatchObject({ sessionId: s.id });
    expect(found.results[0].snippet).toContain("zanzibar");

    const added = await client.callTool({
      name: "memory_add",
      arguments: { target: "memory", content: "prefers pnpm" },
    });
    expect(added.isError).not.toBe(true);
    expect(readFileSync(join(home.home, "MEMORY.md"), "utf8")).toContain("prefers pnpm");
    expect(textOf(await client.callTool({ name: "memory_read", arguments: {} })).memory).toEqual([
      "prefers pnpm",
    ]);
  });
});
