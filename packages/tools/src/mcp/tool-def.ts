// An MCP server's tool as an Iris tool: its JSON Schema as it comes (validated with Ajv), effect
// `communicate` unless the server marks it read-only, and approval asked for every call that may
// change things (key `mcp:<server>:<tool>`, so "session" and "always" answers cover that tool).
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../define.js";
import { jsonSchemaParameters } from "../json-schema/parameters.js";
import type { McpConnection } from "./connection.js";
import { mcpToolName, mcpToolset } from "./names.js";

const MAX_DESCRIPTION = 1024;

export function mcpToolDefinition(connection: McpConnection, tool: McpTool): ToolDefinition {
  const server = connection.name;
  const readOnly = tool.annotations?.readOnlyHint === true;
  const description = (tool.description ?? tool.title ?? tool.name).slice(0, MAX_DESCRIPTION);
  return {
    name: mcpToolName(server, tool.name),
    toolset: mcpToolset(server),
    description: `${description}\n(From MCP server '${server}'.)`,
    parameters: jsonSchemaParameters(tool.inputSchema),
    effect: readOnly ? "read" : "communicate",
    parallelSafe: readOnly,
    label: `${server}:${tool.name}`,
    available: () => connection.state === "ready" || `its MCP server is ${connection.state}`,
    ...(readOnly
      ? {}
      : {
          approvalRule: (args: Record<string, unknown>) => ({
            key: `mcp:${server}:${tool.name}`,
            description: `MCP tool '${tool.name}' of server '${server}' may change things`,
            subject: `${server}.${tool.name} ${JSON.stringify(args)}`.slice(0, 500),
          }),
        }),
    async execute(args, ctx) {
      const result = await connection.callTool(tool.name, args as Record<string, unknown>, ctx.signal);
      return { content: resultText(result), isError: result.isError === true };
    },
  };
}

/** The content blocks as text: text as is, binary described, resources by text or URI. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "image" || block.type === "audio")
      parts.push(`[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`);
    else if (block.type === "resource") {
      const r = block.resource;
      parts.push("text" in r && typeof r.text === "string" ? r.text : `[resource ${r.uri}]`);
    } else if (block.type === "resource_link") parts.push(`[resource ${block.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}
