// The tool menu and approval policy of one front end, from config.yaml (SPEC T2, T4).
import {
  type ApprovalJudge,
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
}

export async function setUpTools(opts: {
  config: IrisConfig;
  configPath: string;
  platform: string;
  yolo?: boolean;
  home?: string;
  /** smart mode's judge (approvals.mode: smart); without one smart mode asks like manual. */
  judge?: ApprovalJudge;
}): Promise<ToolSetup> {
  const registry = new ToolRegistry();
  await loadBuiltinTools(registry);
  const menu = await selectMenu(registry, {
    platform: opts.platform,
    config: { toolsets: opts.config.toolsets },
  });
  const a = opts.config.approvals;
  const policy = createApprovalPolicy({
    mode: opts.yolo ? "off" : a.mode,
    allowKeys: a.allow,
    timeoutMs: a.timeout_seconds * 1000,
    nonInteractive: a.non_interactive,
    persistAlways: (key) => appendAllowedPattern(opts.configPath, key),
    ...(opts.judge && a.mode === "smart" ? { judge: opts.judge } : {}),
    ...(opts.home ? { home: opts.home } : {}),
  });
  return { registry, menu, policy };
}
