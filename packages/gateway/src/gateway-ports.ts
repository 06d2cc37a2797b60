// What the runner lends others (runner.ts): send_message, send_file and cronjob get a running
// platform's outbox, the chat a session answers now and the cron jobs; an adapter gets pairing
// codes for its own strangers.
import type { GatewayConfig } from "@iris/host";
import type { PairingPort } from "./adapter.js";
import type { CronScheduler } from "./cron.js";
import type { Platform } from "./gateway-chat.js";
import type { ChatAddress } from "./message.js";
import type { AuthPolicy } from "./pipeline/authorise.js";
import type { PlatformRules } from "./platforms/configured.js";
import type { GatewayState } from "./state/index.js";
import type { GatewayToolPort } from "./tools.js";

export function toolPort(
  config: GatewayConfig,
  state: GatewayState,
  cron: CronScheduler,
  platforms: ReadonlyMap<string, Platform>,
  rules: Readonly<Record<string, PlatformRules>> | undefined,
  currentChat: (sessionId: string) => ChatAddress | undefined,
): GatewayToolPort {
  return {
    config,
    state,
    cronState: () => cron.state(),
    platforms: () => [...platforms.keys()],
    targets: (platform) => rules?.[platform]?.sendTargets ?? [],
    post: async (logicalKey, to, text) => {
      const p = platforms.get(to.platform);
      if (!p) throw new Error(`no ${to.platform} platform is running`);
      await p.deliverer.deliver(logicalKey, to, text);
    },
    postFile: async (logicalKey, to, file) => {
      const p = platforms.get(to.platform);
      if (!p) throw new Error(`no ${to.platform} platform is running`);
      return (await p.deliverer.deliverFile(logicalKey, to, file)) === "sent";
    },
    maxFileBytes: (platform) => {
      const adapter = platforms.get(platform)?.adapter;
      return adapter?.sendFile ? adapter.limits.maxFileBytes : undefined;
    },
    currentChat,
  };
}

/** Pairing codes for an adapter's own strangers, under the same limits as DMs. */
export function pairingPort(state: GatewayState, auth: AuthPolicy): PairingPort {
  return {
    request: (platform, userId, userName) =>
      state.issueCode(platform, userId, userName, { ttlMs: auth.codeTtlMs, maxPending: auth.maxPending }),
    approvedName: async (platform, userId) =>
      (await state.isApproved(platform, userId))
        ? (await state.approvedUsers()).find((a) => a.platform === platform && a.userId === userId)?.userName
        : undefined,
    forget: async (platform, userId) => {
      await state.revoke(userId, platform);
    },
  };
}
