// MCP prompts as chat commands: `/mcp__<server>__<prompt> key=value …` asks the server for the
// prompt and sends its text as the user's message. Only text parts are used; others are named.
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpManager } from "./manager.js";
import { mcpToolName } from "./names.js";

export interface McpPromptCommand {
  command: string;
  server: string;
  prompt: string;
  description: string;
  arguments: { name: string; required: boolean }[];
}

/** Every ready server's prompts, as commands. */
export async function listPromptCommands(manager: McpManager): Promise<McpPromptCommand[]> {
  const out: McpPromptCommand[] = [];
  for (const conn of manager.connections.values()) {
    for (const p of await conn.listPrompts().catch(() => [])) {
      out.push({
        command: `/${mcpToolName(conn.name, p.name)}`,
        server: conn.name,
        prompt: p.name,
        description: p.description ?? p.title ?? "",
        arguments: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true })),
      });
    }
  }
  return out.sort((a, b) => (a.command < b.command ? -1 : a.command > b.command ? 1 : 0));
}

/** The text to send for `line` (`/mcp__s__p a=1 b=two`), or undefined when it names no prompt. */
export async function promptText(manager: McpManager, line: string): Promise<string | undefined> {
  const [command = "", ...rest] = line.trim().split(/\s+/);
  const found = (await listPromptCommands(manager)).find((c) => c.command === command);
  if (!found) return undefined;
  const args: Record<string, string> = {};
  for (const pair of rest) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`'${pair}': give prompt arguments as name=value`);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const missing = found.arguments.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length) throw new Error(`${command} needs ${missing.map((m) => `${m}=…`).join(" ")}`);
  const conn = manager.connections.get(found.server);
  if (!conn) return undefined;
  return messagesText(await conn.getPrompt(found.prompt, args));
}

function messagesText(result: GetPromptResult): string {
  return result.messages
    .map((m) => {
      const c = m.content;
      if (c.type === "text") return c.text;
      if (c.type === "resource" && "text" in c.resource) return String(c.resource.text);
      return `[${c.type}]`;
    })
    .join("\n\n");
}
