// The tool menu and approval policy of one front end, from config.yaml (SPEC T2, T4).

import { getLogger, type Logger } from "@iris/llm";
import {
  ALL_TOOLSETS,
  type ApprovalJudge,
  type ApprovalMode,
  type ApprovalPolicy,
  createApprovalPolicy,
  DEFAULT_COMPOSITE_TOOLSETS,
  loadBuiltinTools,
  type McpManager,
  type McpServerStatus,
  type Menu,
  type PageIndex,
  type ToolDefinition,
  ToolRegistry,
} from "@iris/tools";
import type { IrisConfig } from "../config/index.js";
import { appendAllowedPattern } from "./config-writes.js";
import { startMcp } from "./mcp-setup.js";
import { profileToolEnvironment } from "./tool-environment.js";

export interface ToolSetup {
  registry: ToolRegistry;
  /**
   * The menu a session opened now gets, and keeps (SPEC S2: its prompt names these tools). MCP
   * servers that come up, die or change their list later change this for later sessions only.
   */
  menu: Menu;
  /** The process's menu as it is now (a session follows it at each message: session-menu.ts). */
  liveMenu?(): Menu;
  /** The process's MCP servers (none configured: an empty manager). */
  mcp: McpManager;
  policy: ApprovalPolicy;
  /**
   * A fresh policy with the same rules, for one session: its own smart-mode judge, and `mode`
   * overriding the config's (an editor's mode picker).
   */
  newPolicy(judge?: ApprovalJudge, mode?: ApprovalMode): ApprovalPolicy;
  /** The approval mode sessions start in (config, or off under --yolo). */
  defaultMode: ApprovalMode;
}

export async function setUpTools(opts: {
  config: IrisConfig;
  configPath: string;
  /** The Iris home (every profile's config, keys and skills): protected from the tools. */
  profileDir?: string;
  platform: string;
  yolo?: boolean;
  home?: string;
  /** Where the registry reports a tool that failed to load (default: the process logger). */
  logger?: Logger;
  /** The profile's environment, for `${VAR}` in mcp_servers (default: none set). */
  env?: Record<string, string | undefined>;
  /** How long to wait for MCP servers still starting (default MCP_STARTUP_BOUND_MS). */
  mcpBoundMs?: number;
  /** smart mode's judge (approvals.mode: smart); without one smart mode asks like manual. */
  judge?: ApprovalJudge;
  /** A front end's own tools, registered before the menu is selected. */
  extraTools?: readonly ToolDefinition[];
  /** Where the web tools keep the pages they read (the store's; default: in memory). */
  pages?: PageIndex;
  /** Every MCP server's status, at start and on each change. */
  onMcpStatus?: (statuses: McpServerStatus[]) => void;
}): Promise<ToolSetup> {
  const log = opts.logger ?? getLogger({ component: "tools" });
  const registry = new ToolRegistry({
    logger: { warn: (message) => log.warn(message) },
    environment: profileToolEnvironment(opts.config, opts.env ?? {}, opts.pages),
  });
  await loadBuiltinTools(registry);
  for (const def of opts.extraTools ?? []) registry.register(def);
  const { mcp, menu } = await startMcp({
    config: opts.config,
    registry,
    platform: opts.platform,
    env: opts.env ?? {},
    logger: log,
    ...(opts.mcpBoundMs !== undefined ? { boundMs: opts.mcpBoundMs } : {}),
    ...(opts.onMcpStatus ? { onStatus: opts.onMcpStatus } : {}),
  });
  const a = opts.config.approvals;
  // "always" answers are saved to config.yaml and shared by every later policy of this process.
  const allowKeys = [...a.allow];
  const defaultMode: ApprovalMode = opts.yolo ? "off" : a.mode;
  // One policy per session (its judge asks that session's model); the rules are the process's.
  const newPolicy = (judge: ApprovalJudge | undefined = opts.judge, mode: ApprovalMode = defaultMode) =>
    createApprovalPolicy({
      mode,
      allowKeys,
      timeoutMs: a.timeout_seconds * 1000,
      nonInteractive: a.non_interactive,
      persistAlways: (key) => {
        allowKeys.push(key);
        return appendAllowedPattern(opts.configPath, key);
      },
      ...(judge && mode === "smart" ? { judge } : {}),
      ...(opts.home ? { home: opts.home } : {}),
      ...(opts.profileDir ? { profile: opts.profileDir } : {}),
      outsideWorkdir: opts.config.files.outside_workdir,
    });
  const setup: ToolSetup = {
    registry,
    menu: menu.current,
    liveMenu: () => menu.current,
    mcp,
    policy: newPolicy(),
    newPolicy,
    defaultMode,
  };
  menu.onRefresh = (m) => {
    setup.menu = m;
  };
  return setup;
}

/**
 * A message naming the toolsets no tool or composite answers to, or undefined when all are known;
 * `where` names the option or config key they came from.
 */
export function unknownToolsets(
  names: readonly string[] | undefined,
  tools: ToolSetup,
  where = "iris: --toolsets",
): string | undefined {
  if (!names) return undefined;
  const known = new Set([
    ...tools.registry.list().map((t) => t.toolset),
    ...Object.keys(DEFAULT_COMPOSITE_TOOLSETS),
    // Every MCP server's tools (mcp-setup.ts); each server's own toolset is its tools' toolset.
    "mcp",
    ALL_TOOLSETS,
  ]);
  const unknown = names.filter((n) => !known.has(n));
  return unknown.length
    ? `${where}: unknown toolset ${unknown.map((n) => `'${n}'`).join(", ")} (known: ${[...known].sort().join(", ")})`
    : undefined;
}
