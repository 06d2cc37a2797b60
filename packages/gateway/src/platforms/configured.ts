// The platforms a profile configures, each loaded through its plugin (SPEC G1): its checked
// config, its adapter, its lock identity and its rules for the runner and the tools.
import type { PlatformAdapter } from "../adapter.js";
import { platformPlugins } from "./index.generated.js";
import type { PlatformContext, PlatformPlugin } from "./plugin.js";

export interface ConfiguredPlatform {
  plugin: PlatformPlugin;
  config: unknown;
  adapter: PlatformAdapter;
  identity: string;
}

/** What the runner and the tools need of a platform besides its adapter. */
export interface PlatformRules {
  allowedUsers: readonly string[];
  sendTargets: readonly string[];
  formattingHint: string;
  /** Chats whose sessions are limited to these toolsets, by chat id. */
  toolsets?: Readonly<Record<string, readonly string[]>>;
}

export function rulesOf(p: ConfiguredPlatform): PlatformRules {
  return {
    allowedUsers: p.plugin.allowedUsers(p.config),
    sendTargets: p.plugin.sendTargets(p.config),
    formattingHint: p.plugin.formattingHint,
    ...(p.plugin.toolsets ? { toolsets: p.plugin.toolsets(p.config) } : {}),
  };
}

export function knownPlatforms(): string[] {
  return Object.keys(platformPlugins).sort();
}

/** A configured platform before its adapter exists (its lock is taken first). */
export interface LoadedPlatform {
  plugin: PlatformPlugin;
  config: unknown;
}

/** Loads the plugin of each configured platform and checks its section (nothing connects). */
export async function loadPlatforms(sections: Readonly<Record<string, unknown>>): Promise<LoadedPlatform[]> {
  const out: LoadedPlatform[] = [];
  for (const id of Object.keys(sections).sort()) {
    const raw = sections[id];
    if (raw === undefined) continue;
    const load = platformPlugins[id];
    if (!load)
      throw new Error(`gateway.platforms.${id}: no such platform (known: ${knownPlatforms().join(", ")})`);
    const plugin = (await load()).default;
    // The config loader checked it already; parsing again types it for the plugin.
    out.push({ plugin, config: plugin.schema.parse(raw) });
  }
  return out;
}

/** Makes the adapter of a loaded platform (throws naming the platform when it cannot work). */
export function createPlatform(p: LoadedPlatform, ctx: PlatformContext): ConfiguredPlatform {
  const adapter = p.plugin.create(p.config, { ...ctx, logger: ctx.logger.child({ platform: p.plugin.id }) });
  return { ...p, adapter, identity: p.plugin.identity(p.config, ctx) };
}
