// `iris mcp serve`: Iris's own conversation search and memory as an MCP server over stdio, so
// other agents (Claude Desktop, editors, another Iris) can use them. stdout carries only the
// protocol; nothing else is written there. Memory writes keep the profile's character limits.
import type { Readable, Writable } from "node:stream";
import { MemoryFiles } from "@iris/agent";
import { z } from "zod";
import type { Profile } from "../config/index.js";
import { openProfileStore } from "./profile-store.js";

const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });
const failure = (message: string) => ({
  content: [{ type: "text" as const, text: JSON.stringify({ error: message }) }],
  isError: true,
});

/** Serves until the client closes stdin; resolves then, with the store closed. */
export async function serveMcp(profile: Profile, io: { stdin: Readable; stdout: Writable }): Promise<void> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const store = await openProfileStore(profile);
  const { memory: mem } = profile.config;
  const memory = new MemoryFiles(
    { memory: profile.home.paths.memory, user: profile.home.paths.user },
    { memory: mem.memory_char_limit, user: mem.user_char_limit },
  );
  const server = new McpServer({ name: "iris", version: "0.1.0" });
  server.registerTool(
    "session_search",
    {
      description: "Search the stored Iris conversations of this profile (any language); returns snippets.",
      inputSchema: { query: z.string().min(1), limit: z.number().int().min(1).max(50).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) =>
      text({
        results: (await store.search(query, { limit: limit ?? 10 })).map((h) => ({
          sessionId: h.sessionId,
          role: h.role,
          snippet: h.snippet,
        })),
      }),
  );
  server.registerTool(
    "memory_read",
    {
      description: "Read Iris's durable memory: notes (memory) and facts about the user (user).",
      annotations: { readOnlyHint: true },
    },
    async () => text({ memory: memory.entries("memory"), user: memory.entries("user") }),
  );
  server.registerTool(
    "memory_add",
    {
      description: "Add an entry to Iris's memory (target memory) or user profile (target user).",
      inputSchema: { target: z.enum(["memory", "user"]), content: z.string().min(1) },
    },
    async ({ target, content }) => {
      try {
        return text({ result: memory.apply("add", target, content) });
      } catch (e) {
        return failure((e as Error).message);
      }
    },
  );
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    io.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  try {
    await closed;
  } finally {
    await server.close().catch(() => undefined);
    await store.close();
  }
}
