// `iris mcp list|test` and doctor's MCP check: start the profile's servers once, outside any
// session, see what each offers or why it failed, and stop them again.
import { McpManager, type McpServerStatus, ToolRegistry } from "@iris/tools";
import type { Profile } from "../config/index.js";
import type { Finding } from "../doctor/types.js";

export interface McpProbe {
  statuses: McpServerStatus[];
  /** Tool descriptions by registered name. */
  descriptions: Map<string, string>;
}

/** Starts the named server (or every configured one) and reports each; never throws. */
/** How long `iris mcp list|test` and doctor wait for servers to start. */
const MCP_PROBE_BOUND_MS = 15_000;

export async function probeMcpServers(profile: Profile, only?: string): Promise<McpProbe> {
  const all = profile.config.mcp_servers;
  const servers =
    only === undefined ? all : Object.fromEntries(Object.entries(all).filter(([n]) => n === only));
  const registry = new ToolRegistry({ logger: { warn: () => undefined } });
  const manager = new McpManager({ servers, env: profile.env, registry, revive: false });
  try {
    // Bounded: a server still starting is reported as such instead of holding the command.
    await manager.startWithin(MCP_PROBE_BOUND_MS);
    const descriptions = new Map(registry.list().map((t) => [t.name, t.description] as const));
    return { statuses: manager.status(), descriptions };
  } finally {
    await manager.close();
  }
}

/** Doctor's lines: one per configured server. */
export async function checkMcpServers(profile: Profile): Promise<Finding[]> {
  if (Object.keys(profile.config.mcp_servers).length === 0) return [];
  const { statuses } = await probeMcpServers(profile);
  return statuses.map((s): Finding => {
    const subject = `MCP server ${s.name}`;
    if (s.state === "disabled") return { status: "ok", subject, message: "disabled (enabled: false)" };
    if (s.state === "ready")
      return { status: "ok", subject, message: `${s.tools.length} tools (${s.transport})` };
    return {
      status: "fail",
      subject,
      message: `does not start: ${s.lastError ?? s.state}`,
      fix: `check mcp_servers.${s.name} in config.yaml, then run \`iris mcp test ${s.name}\``,
    };
  });
}
