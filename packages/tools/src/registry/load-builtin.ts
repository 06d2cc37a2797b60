// Fills a registry from the generated index of builtin/ (T1). Adding a tool is adding one file
// and regenerating the index; a module that fails to load (a missing optional dependency, a
// syntax error, a default export that is not a tool) is logged and skipped, never fatal.

import { builtinToolModules } from "../builtin-index.generated.js";
import type { ToolDefinition } from "../define.js";
import type { ToolRegistry } from "./registry.js";
import { compareNames } from "./registry.js";

export type ToolModuleIndex = Readonly<Record<string, () => Promise<unknown>>>;

export interface LoadBuiltinOptions {
  /** Load only these index entries (file names without `.ts`). */
  only?: string[];
  /** The index to load from; defaults to the generated one (tests pass their own). */
  index?: ToolModuleIndex;
}

export interface LoadReport {
  loaded: string[];
  failed: { module: string; error: string }[];
}

export async function loadBuiltinTools(
  registry: ToolRegistry,
  options: LoadBuiltinOptions = {},
): Promise<LoadReport> {
  const index = options.index ?? builtinToolModules;
  const only = options.only ? new Set(options.only) : undefined;
  const keys = Object.keys(index)
    .filter((k) => !only || only.has(k))
    .sort(compareNames);
  // Import in parallel, register in index order so collisions resolve the same way every run.
  const settled = await Promise.allSettled(keys.map((k) => Promise.resolve().then(() => index[k]?.())));
  const report: LoadReport = { loaded: [], failed: [] };
  keys.forEach((key, i) => {
    const outcome = settled[i];
    let error: string | undefined;
    if (!outcome || outcome.status === "rejected") {
      error = describeError(outcome?.reason);
    } else {
      const def = defaultExport(outcome.value);
      if (def) {
        registry.register(def);
        report.loaded.push(def.name);
        return;
      }
      error = "its default export is not a tool (expected `export default defineTool({...})`)";
    }
    registry.logger.warn(`tool module '${key}' skipped: ${error}`);
    report.failed.push({ module: key, error });
  });
  return report;
}

function defaultExport(mod: unknown): ToolDefinition | undefined {
  if (mod === null || typeof mod !== "object") return undefined;
  const def = (mod as { default?: unknown }).default;
  if (def === null || typeof def !== "object") return undefined;
  const d = def as Partial<ToolDefinition>;
  const ok =
    typeof d.name === "string" &&
    d.name.length > 0 &&
    typeof d.toolset === "string" &&
    typeof d.description === "string" &&
    typeof d.execute === "function" &&
    typeof d.parameters === "object" &&
    d.parameters !== null;
  return ok ? (def as ToolDefinition) : undefined;
}

function describeError(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
