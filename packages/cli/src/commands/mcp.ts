// `iris mcp list` and `iris mcp test NAME`: each configured MCP server's state, tools and last
// error, found by starting it (SPEC U8). Exit 1 when a server that should start does not.
import { loadProfileOrExit, probeMcpServers, serveMcp } from "@iris/host";
import type { GlobalFlags } from "../flags.js";

export async function mcpCommand(flags: GlobalFlags, only?: string): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const configured = Object.keys(loaded.profile.config.mcp_servers);
  if (only !== undefined && !configured.includes(only)) {
    const known = configured.length ? configured.join(", ") : "none";
    process.stderr.write(`no MCP server '${only}' in mcp_servers of config.yaml (configured: ${known})\n`);
    return 2;
  }
  if (configured.length === 0) {
    process.stdout.write("no MCP servers configured (mcp_servers in config.yaml)\n");
    return 0;
  }
  const { statuses, descriptions } = await probeMcpServers(loaded.profile, only);
  const lines: string[] = [];
  for (const s of statuses) {
    lines.push(`${s.name}  ${s.state}  ${s.transport}  ${s.tools.length} tools`);
    if (s.lastError) lines.push(`  last error: ${s.lastError}`);
    for (const t of s.tools) {
      const about = only !== undefined ? `  ${(descriptions.get(t) ?? "").split("\n")[0]}` : "";
      lines.push(`  ${t}${about}`);
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return statuses.some((s) => s.state === "failed") ? 1 : 0;
}

/** `iris mcp serve`: stdout carries only the protocol; problems go to stderr. */
export async function mcpServe(flags: GlobalFlags): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  await serveMcp(loaded.profile, { stdin: process.stdin, stdout: process.stdout });
  return 0;
}
