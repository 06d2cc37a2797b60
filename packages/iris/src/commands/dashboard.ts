// `iris dashboard [--host H] [--port N]`: the browser dashboard (SPEC E1 front ends), loaded only
// when asked for. It prints where it listens and where the login token is kept, never the token,
// and runs until SIGINT/SIGTERM.

import type { GlobalFlags } from "@iris/cli";
import { IRIS_VERSION } from "@iris/cli";
import { loadProfileOrExit, type Profile } from "@iris/host";

export async function dashboardCommand(
  flags: GlobalFlags,
  o: { host?: string; port?: number },
): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  for (const w of loaded.profile.warnings) process.stderr.write(`iris: ${w}\n`);
  const running = await startForProfile(loaded.profile, o);
  if (typeof running === "number") return running;
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await running.close();
  return 0;
}

/** Starts the dashboard and says where; 2 (with the reason on stderr) when it cannot listen. */
export async function startForProfile(
  profile: Profile,
  o: { host?: string; port?: number },
): Promise<{ close(): Promise<void> } | number> {
  const { startDashboard, DashboardStartError } = await import("@iris/dashboard");
  const { openCronState } = await import("@iris/gateway/cron-state");
  try {
    const running = await startDashboard({
      profile,
      env: process.env,
      version: IRIS_VERSION,
      openCron: (data) => openCronState(data),
      ...(o.host !== undefined ? { host: o.host } : {}),
      ...(o.port !== undefined ? { port: o.port } : {}),
    });
    process.stderr.write(
      `iris dashboard: listening on ${running.url} (profile ${profile.home.profile}; login token in ${running.tokenFile})\n`,
    );
    return running;
  } catch (err) {
    if (!(err instanceof DashboardStartError)) throw err;
    process.stderr.write(`iris dashboard: ${err.message}\n`);
    return 2;
  }
}
