// The menu (T2): which tools the model is offered on one platform. Toolset selection from the
// config, then each tool's availability check, then descriptions rewritten so no filtered-out
// tool is named. Sorted by name so the request bytes are the same from run to run.
import type { ToolSpec } from "@iris/llm";
import type { ToolDefinition } from "../define.js";
import { rewriteDescription } from "./describe.js";
import type { ToolRegistry } from "./registry.js";
import { parametersSchema, toToolSpec } from "./spec.js";
import {
  DEFAULT_COMPOSITE_TOOLSETS,
  expandToolsets,
  platformToolsets,
  type ToolSelectionConfig,
} from "./toolsets.js";

export interface MenuOptions {
  /** "cli", "gateway", "acp", "api", "cron", … */
  platform: string;
  config?: ToolSelectionConfig;
}

export interface Menu {
  /** The offered tools, sorted by name. */
  tools: ToolDefinition[];
  /** What goes into the request, same order, descriptions rewritten. */
  specs: ToolSpec[];
  /** Selected by toolset but whose availability check said no (or failed). */
  unavailable: string[];
  /** Why each unavailable tool is not offered (its check's answer). */
  unavailableReasons?: Record<string, string>;
}

export async function selectMenu(registry: ToolRegistry, options: MenuOptions): Promise<Menu> {
  const { config } = options;
  const all = registry.list();
  const composites = { ...DEFAULT_COMPOSITE_TOOLSETS, ...(config?.compositeToolsets ?? {}) };
  const knownBasic = new Set(all.map((t) => t.toolset));
  const wanted = expandToolsets(platformToolsets(options.platform, config), composites, knownBasic);
  for (const name of wanted.unknown) {
    registry.logger.warn(`toolset '${name}' (platform '${options.platform}') matches no tool`);
  }
  const disabledSets = expandToolsets(config?.disabledToolsets ?? [], composites, knownBasic).basic;
  const disabledTools = new Set(config?.disabledTools ?? []);

  const candidates = all.filter(
    (t) =>
      (wanted.all || wanted.basic.has(t.toolset)) &&
      !disabledSets.has(t.toolset) &&
      !disabledTools.has(t.name),
  );

  const check = registry.availability.session(registry.environment);
  const verdicts = await Promise.all(
    candidates.map((t) => (t.available ? check(t.available) : { ok: true as const })),
  );
  const unavailable = candidates.filter((_, i) => !verdicts[i]?.ok).map((t) => t.name);
  const unavailableReasons: Record<string, string> = {};
  candidates.forEach((t, i) => {
    const v = verdicts[i];
    if (v && !v.ok) unavailableReasons[t.name] = v.reason ?? "its check said no";
  });
  const tools = candidates.filter((t, i) => verdicts[i]?.ok && hasObjectSchema(registry, t));

  const offered = new Set(tools.map((t) => t.name));
  const removed = all.map((t) => t.name).filter((n) => !offered.has(n));
  const specs = tools.map((t) => toToolSpec(t, rewriteDescription(t.description, t.name, removed)));
  return { tools, specs, unavailable, unavailableReasons };
}

/** Providers take only object schemas; a schema zod cannot express is a bug, not a crash. */
function hasObjectSchema(registry: ToolRegistry, tool: ToolDefinition): boolean {
  try {
    if (parametersSchema(tool.parameters).type === "object") return true;
    registry.logger.warn(`tool '${tool.name}' left out: its parameters are not a JSON object schema`);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    registry.logger.warn(`tool '${tool.name}' left out: its parameters have no JSON Schema (${why})`);
  }
  return false;
}
