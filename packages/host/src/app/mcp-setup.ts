// The process's MCP servers (SPEC T6, U8): started together with the tool registry, waited for
// at most a stated bound, and the menu for new sessions re-selected whenever a server's tools
// come, go or change. The `mcp` composite toolset holds every server's toolset, and `core` and
// `coding` include it, so a platform's toolsets in config.yaml decide about MCP tools too (T2).
import type { Logger } from "@iris/llm";
import {
  DEFAULT_COMPOSITE_TOOLSETS,
  MCP_STARTUP_BOUND_MS,
  McpManager,
  type McpServerStatus,
  type Menu,
  selectMenu,
  type ToolRegistry,
  type ToolSelectionConfig,
} from "@iris/tools";
import type { IrisConfig } from "../config/index.js";

export interface LiveMenu {
  current: Menu;
  onRefresh?(menu: Menu): void;
}

export function selectionConfig(config: IrisConfig, mcp: McpManager): ToolSelectionConfig {
  const withMcp = (set: readonly string[]) => [...set, "mcp"];
  return {
    toolsets: config.toolsets,
    compositeToolsets: {
      mcp: mcp.toolsets(),
      core: withMcp(DEFAULT_COMPOSITE_TOOLSETS.core ?? []),
      coding: withMcp(DEFAULT_COMPOSITE_TOOLSETS.coding ?? []),
    },
  };
}

export async function startMcp(opts: {
  config: IrisConfig;
  registry: ToolRegistry;
  platform: string;
  env: Record<string, string | undefined>;
  logger: Logger;
  boundMs?: number;
  /** Every server's status, at start and on each change (recorded for the dashboard). */
  onStatus?: (statuses: McpServerStatus[]) => void;
}): Promise<{ mcp: McpManager; menu: LiveMenu }> {
  const live: LiveMenu = { current: { tools: [], specs: [], unavailable: [] } };
  let started = false;
  let pending: Promise<void> = Promise.resolve();
  const refresh = () => {
    if (!started) return;
    // One selection at a time, in order, so an older menu never replaces a newer one.
    pending = pending.then(async () => {
      live.current = await selectMenu(opts.registry, { platform: opts.platform, config: selection });
      live.onRefresh?.(live.current);
    });
  };
  const mcp = new McpManager({
    servers: opts.config.mcp_servers,
    env: opts.env,
    registry: opts.registry,
    onChange: refresh,
    ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
  });
  const selection = selectionConfig(opts.config, mcp);
  await mcp.startWithin(opts.boundMs ?? MCP_STARTUP_BOUND_MS);
  // Servers still starting after the bound are recorded as such (their change comes later).
  opts.onStatus?.(mcp.status());
  for (const problem of mcpStartProblems(mcp)) opts.logger.warn(problem);
  live.current = await selectMenu(opts.registry, { platform: opts.platform, config: selection });
  started = true;
  return { mcp, menu: live };
}

/** One line per server whose start failed (boot shows them to the user; startMcp logs them). */
export function mcpStartProblems(mcp: McpManager): string[] {
  return mcp.status().flatMap((s) => {
    if (s.state === "failed") return [`MCP server '${s.name}' failed to start: ${s.lastError ?? ""}`];
    if ((s.state === "restarting" || s.state === "starting") && s.lastError !== undefined)
      return [
        `MCP server '${s.name}' failed to start, trying again in the background (\`iris mcp list\` shows it): ${s.lastError}`,
      ];
    return [];
  });
}
