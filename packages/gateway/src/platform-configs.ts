// The light entry the `iris` bin imports at start (`@iris/gateway/platform-configs`): every
// platform's config schema registered with host's config loader, no client library loaded.
import { registerPlatformConfigs } from "@iris/host";
import { platformConfigs } from "./platforms/index.generated.js";

export { platformClis } from "./platforms/index.generated.js";
export type { PlatformCli } from "./platforms/plugin.js";

export function registerGatewayPlatforms(): void {
  registerPlatformConfigs(platformConfigs);
}
