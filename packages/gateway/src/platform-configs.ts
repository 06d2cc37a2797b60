// The light entry the `iris` bin imports at start (`@iris/gateway/platform-configs`): every
// platform's config schema registered with host's config loader, no client library loaded.
import { registerPlatformConfigs } from "@iris/host";
import { platformClis, platformConfigs } from "./platforms/index.generated.js";
import type { PlatformCli } from "./platforms/plugin.js";

export type { PlatformCli } from "./platforms/plugin.js";

/** Every platform's own subcommands by id: loaded only for `iris gateway …` (each cli.ts is small). */
export async function loadPlatformClis(): Promise<Record<string, PlatformCli>> {
  const entries = await Promise.all(
    Object.entries(platformClis).map(async ([id, load]) => [id, (await load()).cli] as const),
  );
  return Object.fromEntries(entries);
}

export function registerGatewayPlatforms(): void {
  registerPlatformConfigs(platformConfigs);
}
