// The tool menu and approval policy of one front end, from config.yaml (SPEC T2, T4).

import { getLogger, type Logger } from "@iris/llm";
import {
  ALL_TOOLSETS,
  type ApprovalJudge,
  type ApprovalPolicy,
  createApprovalPolicy,
  DEFAULT_COMPOSITE_TOOLSETS,
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
  /** A fresh policy with the same rules, for one session (with its own smart-mode judge). */
  newPolicy(judge?: ApprovalJudge): ApprovalPolicy;
}

export async function setUpTools(opts: {
  config: IrisConfig;
  configPath: string;
  platform: string;
  yolo?: boolean;
  home?: string;
  /** Where the registry reports a tool that failed to load (default: the process logger). */
  logger?: Logger;
  /** smart mode's judge (approvals.mode: smart); without one smart mode asks like manual. */
  judge?: ApprovalJudge;
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
  // One policy per session (its judge asks that session's model); the rules are the process's.
  const newPolicy = (judge: ApprovalJudge | undefined = opts.judge) =>
    createApprovalPolicy({
      mode: opts.yolo ? "off" : a.mode,
      allowKeys,
      timeoutMs: a.timeout_seconds * 1000,
      nonInteractive: a.non_interactive,
      persistAlways: (key) => {
        allowKeys.push(key);
        return appendAllowedPattern(opts.configPath, key);
      },
      ...(judge && a.mode === "smart" ? { judge } : {}),
      ...(opts.home ? { home: opts.home } : {}),
    });
  return { registry, menu, policy: newPolicy(), newPolicy };
}

/** A message naming the toolsets no tool or composite answers to, or undefined when all are known. */
export function unknownToolsets(names: readonly string[] | undefined, tools: ToolSetup): string | undefined {
  if (!names) return undefined;
  const known = new Set([
    ...tools.registry.list().map((t) => t.toolset),
    ...Object.keys(DEFAULT_COMPOSITE_TOOLSETS),
    ALL_TOOLSETS,
  ]);
  const unknown = names.filter((n) => !known.has(n));
  return unknown.length
    ? `iris: --toolsets: unknown toolset ${unknown.map((n) => `'${n}'`).join(", ")} (known: ${[...known].sort().join(", ")})`
    : undefined;
}
