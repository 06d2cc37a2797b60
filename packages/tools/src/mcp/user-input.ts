// What the user typed, with MCP expanded, the same in the chat and in `iris -p`:
// `/mcp__<server>__<prompt> name=value …` becomes the prompt's text, and `@<server>:<uri>`
// attaches the resource (prompts.ts, resources.ts). A server the line names that is still
// starting (or being restarted) is waited for, up to its own timeout: the user asked for it.
import type { McpManager } from "./manager.js";
import { promptText } from "./prompts.js";
import { attachResources, mentionedServers } from "./resources.js";

export type McpInput = { text: string } | { error: string };

export async function expandMcpInput(manager: McpManager, line: string): Promise<McpInput> {
  try {
    if (line.startsWith("/mcp__")) {
      const command = line.trim().split(/\s+/)[0] ?? "";
      await settleMcpServers(
        manager,
        [...manager.connections.keys()].filter((name) => command.startsWith(`/mcp__${name}__`)),
      );
      const text = await promptText(manager, line);
      return text === undefined ? { error: `no MCP prompt '${command}' (see /help)` } : { text };
    }
    if (!line.includes("@") || manager.connections.size === 0) return { text: line };
    await settleMcpServers(manager, mentionedServers(line));
    return { text: await attachResources(manager, line) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Resolves once each named server (default: all) has settled — ready, failed or disabled — or
 * its own timeout has passed: what a user asked for is waited for, never longer than that.
 */
export async function settleMcpServers(
  manager: McpManager,
  names: string[] = [...manager.connections.keys()],
): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      const conn = manager.connections.get(name);
      if (!conn || (conn.state !== "starting" && conn.state !== "restarting")) return;
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, conn.timeoutMs);
      });
      await Promise.race([conn.until(["ready", "failed", "disabled"]), limit]);
      clearTimeout(timer);
    }),
  );
}
