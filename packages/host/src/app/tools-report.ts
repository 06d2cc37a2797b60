// `iris tools`: every built-in tool of a platform's menu, offered or not and why (its toolset is
// not selected or disabled, or its availability check said no: a search backend with no key).
import {
  loadBuiltinTools,
  platformToolsets,
  selectMenu,
  ToolRegistry,
  type ToolSelectionConfig,
} from "@iris/tools";
import type { Profile } from "../config/index.js";
import { profileToolEnvironment } from "./tool-environment.js";

export interface ToolRow {
  name: string;
  toolset: string;
  offered: boolean;
  /** Why it is not offered. */
  reason?: string;
}

export async function toolsReport(profile: Profile, platform: string): Promise<ToolRow[]> {
  const registry = new ToolRegistry({
    logger: { warn: () => undefined },
    environment: profileToolEnvironment(profile.config, profile.env),
  });
  await loadBuiltinTools(registry);
  const selection: ToolSelectionConfig = { toolsets: profile.config.toolsets };
  const menu = await selectMenu(registry, { platform, config: selection });
  const offered = new Set(menu.tools.map((t) => t.name));
  const wanted = platformToolsets(platform, selection).join(", ");
  return registry.list().map((t) => {
    if (offered.has(t.name)) return { name: t.name, toolset: t.toolset, offered: true };
    const reason =
      menu.unavailableReasons?.[t.name] ??
      `toolset '${t.toolset}' is not in ${platform}'s toolsets (${wanted})`;
    return { name: t.name, toolset: t.toolset, offered: false, reason };
  });
}
