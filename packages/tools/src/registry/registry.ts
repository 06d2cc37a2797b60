// The tool registry (T1): name → definition. It imports nothing from the agent or any front end;
// selecting the menu lives in menu.ts, loading the built-in tools in load-builtin.ts.
import type { ToolDefinition } from "../define.js";
import { EMPTY_TOOL_ENVIRONMENT, type ToolEnvironment } from "../environment.js";
import { AvailabilityCache, type AvailabilityOptions } from "./availability.js";
import { stderrLogger, type ToolLogger } from "./logger.js";

export interface ToolRegistryOptions extends AvailabilityOptions {
  logger?: ToolLogger;
  /** The profile's environment, fetch and web settings every tool call and check gets. */
  environment?: ToolEnvironment;
}

export class ToolRegistry {
  readonly logger: ToolLogger;
  /** Shared by every menu selection made from this registry. */
  readonly availability: AvailabilityCache;
  readonly environment: ToolEnvironment;
  private readonly tools = new Map<string, ToolDefinition>();

  constructor(options: ToolRegistryOptions = {}) {
    this.logger = options.logger ?? stderrLogger;
    this.availability = new AvailabilityCache(options);
    this.environment = options.environment ?? EMPTY_TOOL_ENVIRONMENT;
  }

  /** Adds a tool. A second tool with the same name replaces the first, with a warning. */
  register(def: ToolDefinition): void {
    const previous = this.tools.get(def.name);
    if (previous) {
      this.logger.warn(
        `tool name collision: '${def.name}' (toolset '${def.toolset}') replaces the one from toolset '${previous.toolset}'`,
      );
    }
    this.tools.set(def.name, def);
  }

  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  /** Exact name lookup; no guessing. */
  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Every registered tool, sorted by name so anything built from it is stable. */
  list(): ToolDefinition[] {
    return [...this.tools.values()].sort((a, b) => compareNames(a.name, b.name));
  }
}

/** Code-unit order, independent of the locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
