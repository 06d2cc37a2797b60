// Which toolsets a platform offers (T2). A basic toolset is the `toolset` field of its tools; a
// composite toolset names other toolsets (basic or composite, cycles ignored). The config gives
// each platform its list; what it does not give falls back to the defaults below.

/** Composite toolsets; names follow Hermes Agent's toolsets. Users may add or override them. */
export const DEFAULT_COMPOSITE_TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  core: [
    "terminal",
    "file",
    "web",
    "clarify",
    "todo",
    "memory",
    "session_search",
    "delegation",
    "skills",
    "vision",
    "code_execution",
    "browser",
    "cronjob",
    "messaging",
  ],
  coding: [
    "terminal",
    "file",
    "web",
    "clarify",
    "todo",
    "memory",
    "session_search",
    "delegation",
    "skills",
    "code_execution",
  ],
  debugging: ["terminal", "file", "web"],
  safe: ["web", "vision"],
};

/** What each platform offers when the config does not say. Unknown platforms get `core`. */
export const DEFAULT_PLATFORM_TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  cli: ["core"],
  gateway: ["core"],
  acp: ["coding"],
  api: ["coding"],
  cron: ["core"],
  // Nobody is there to answer a clarify, and a dataset run must not read or write the user's
  // memory or search their sessions.
  batch: ["terminal", "file", "web", "todo", "skills", "vision", "code_execution"],
  webhook: ["web", "vision", "clarify"],
};

/** The plain input the config layer hands over (e.g. from config.yaml `toolsets:`). */
export interface ToolSelectionConfig {
  /** Toolsets per platform, e.g. `{cli: ["core"], gateway: ["core", "messaging"]}`. */
  toolsets?: Record<string, string[]>;
  /** Extra or overriding composite toolsets, e.g. `{mine: ["file", "web"]}`. */
  compositeToolsets?: Record<string, string[]>;
  /** Toolsets never offered on any platform. */
  disabledToolsets?: string[];
  /** Tools never offered on any platform. */
  disabledTools?: string[];
}

/** The name that means every toolset. */
export const ALL_TOOLSETS = "all";

export interface ExpandedToolsets {
  /** Basic toolsets reached (may include names no tool carries). */
  basic: Set<string>;
  /** Names that are neither a composite nor a known basic toolset. */
  unknown: string[];
  all: boolean;
}

/**
 * Expands toolset names through the composites, depth first, visiting each name once so a
 * composite that includes itself (directly or not) ends the walk instead of looping.
 */
export function expandToolsets(
  names: readonly string[],
  composites: Readonly<Record<string, readonly string[]>>,
  knownBasic: ReadonlySet<string>,
): ExpandedToolsets {
  const basic = new Set<string>();
  const unknown: string[] = [];
  const visited = new Set<string>();
  let all = false;
  const visit = (name: string, fromConfig: boolean): void => {
    if (visited.has(name)) return;
    visited.add(name);
    if (name === ALL_TOOLSETS) {
      all = true;
      return;
    }
    const members = Object.hasOwn(composites, name) ? composites[name] : undefined;
    if (members) {
      for (const member of members) visit(member, false);
      return;
    }
    basic.add(name);
    // Built-in composites may name toolsets whose tools are not installed; only the user's own
    // names are worth a warning.
    if (fromConfig && !knownBasic.has(name)) unknown.push(name);
  };
  for (const name of names) visit(name, true);
  return { basic, unknown, all };
}

/** The toolset names a platform asks for: its config entry, else the platform default. */
export function platformToolsets(platform: string, config: ToolSelectionConfig | undefined): string[] {
  const configured = config?.toolsets?.[platform];
  if (configured) return [...configured];
  return [...(DEFAULT_PLATFORM_TOOLSETS[platform] ?? ["core"])];
}
