// The tool menu and approval policy of one front end, from config.yaml (SPEC T2, T4).

import { getLogger, type Logger } from "@iris/llm";
import {
  type ApprovalMode,
  type ApprovalPolicy,
  createApprovalPolicy,
  loadBuiltinTools,
  type Menu,
  selectMenu,
  ToolRegistry,
} from "@iris/tools";
import type { IrisConfig } from "../config/index.js";
import { appendAllowedPattern } from "./config-writes.js";

export interface ToolSetup {
  registry: ToolRegistry;
  menu: Menu;
  policy: ApprovalPolicy;
  /** A fresh policy with the same rules and an empty memory: one per session (`mode` overrides config). */
  newPolicy(mode?: ApprovalMode): ApprovalPolicy;
  /** The approval mode sessions start in (config, or off under --yolo). */
  defaultMode: ApprovalMode;
}

export async function setUpTools(opts: {
  config: IrisConfig;
  configPath: string;
  platform: string;
  yolo?: boolean;
  home?: string;
  /** Where the registry reports a tool that failed to load (default: the process logger). */
  logger?: Logger;
}): Promise<ToolSetup> {
  const log = opts.logger ?? getLogger({ component: "tools" });
  const registry = new ToolRegistry({ logger: { warn: (message) => log.warn(message) } });
  await loadBuiltinTools(registry);
  const menu = await selectMenu(registry, {
    platform: opts.platform,
    config: { toolsets: opts.config.toolsets },
  });
  const a = opts.config.approvals;
  // "always" answers are saved to config.yaml and shared by every later policy of this process.
  const allowKeys = [...a.allow];
  const defaultMode: ApprovalMode = opts.yolo ? "off" : a.mode;
  const newPolicy = (mode: ApprovalMode = defaultMode) =>
    createApprovalPolicy({
      mode,
      allowKeys,
      timeoutMs: a.timeout_seconds * 1000,
      nonInteractive: a.non_interactive,
      persistAlways: (key) => {
        allowKeys.push(key);
        return appendAllowedPattern(opts.configPath, key);
      },
      ...(opts.home ? { home: opts.home } : {}),
    });
  return { registry, menu, policy: newPolicy(), newPolicy, defaultMode };
}
