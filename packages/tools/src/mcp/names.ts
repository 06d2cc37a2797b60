// Tool names the model sees: `mcp__<server>__<tool>`, made of the characters every provider takes
// ([A-Za-z0-9_-]) and at most 64 long (OpenAI's and Anthropic's limit). A name cut to fit keeps a
// short hash of the whole, so two long names never collide.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME = 64;

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${clean(server)}__${clean(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/** The toolset of one server's tools; the composite `mcp` holds every server's. */
export function mcpToolset(server: string): string {
  return `mcp_${clean(server)}`;
}
