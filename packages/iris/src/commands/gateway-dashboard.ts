// `iris gateway run` with `gateway.dashboard: true`: the dashboard runs in the gateway's process
// (dashboard.host/port) and closes after it. The gateway package never imports the dashboard:
// front ends meet only here, in the bin.

import type { RunOptions } from "@iris/gateway";
import { loadProfile } from "@iris/host";
import { startForProfile } from "./dashboard.js";

export async function gatewayRunWithDashboard(opts: RunOptions): Promise<number> {
  const { gatewayRun } = await import("@iris/gateway");
  const loaded = loadProfile({ env: opts.env, ...(opts.profile ? { profile: opts.profile } : {}) });
  // An unloadable profile is the gateway's to report, as without a dashboard.
  if (!loaded.ok || !loaded.config.gateway.dashboard) return gatewayRun(opts);
  const running = await startForProfile(loaded, {});
  if (typeof running === "number") return running;
  try {
    return await gatewayRun(opts);
  } finally {
    await running.close();
  }
}
