// `iris dashboard` (and the gateway's, with gateway.dashboard): opens the profile's store (SQLite
// or Postgres, as its store: says), makes or reads the login token (dashboard.token, mode 600),
// and serves the pages on loopback unless told otherwise. While it runs it tells askers on the
// board that someone can answer them.

import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { DashboardData, type Profile, StoreError } from "@iris/host";
import { createApp } from "./app.js";
import { loadAssets } from "./assets.js";
import { allowedHosts, DashboardAuth, loadOrCreateToken } from "./auth.js";
import type { DashboardCron } from "./cron-port.js";
import type { DashboardDeps } from "./deps.js";

export interface DashboardOptions {
  profile: Profile;
  env: Record<string, string | undefined>;
  /** Override dashboard.host / dashboard.port (the command line's --host / --port). */
  host?: string;
  port?: number;
  version: string;
  /** Opens the gateway's cron jobs on the dashboard's connection (the iris command passes the
   * gateway's; without it the cron page says it cannot show them). */
  openCron?: (data: DashboardData) => Promise<DashboardCron>;
}

export interface RunningDashboard {
  url: string;
  port: number;
  /** The file holding the login token (the token itself is never printed or logged). */
  tokenFile: string;
  close(): Promise<void>;
}

export class DashboardStartError extends Error {}

/** How often the dashboard says it is there (askers wait for it while this is fresh). */
const PRESENCE_EVERY_MS = 5000;

export async function startDashboard(opts: DashboardOptions): Promise<RunningDashboard> {
  const cfg = opts.profile.config.dashboard;
  const host = opts.host ?? cfg.host;
  const port = opts.port ?? cfg.port;
  const tokenFile = join(opts.profile.home.root, "dashboard.token");
  const token = loadOrCreateToken(tokenFile);
  let data: DashboardData;
  try {
    data = await DashboardData.open(opts.profile);
  } catch (err) {
    // An unreachable or too new store: said as the store says it (never the URL's password).
    if (err instanceof StoreError) throw new DashboardStartError(err.message);
    throw err;
  }
  let cron: DashboardCron | undefined;
  try {
    cron = await opts.openCron?.(data);
  } catch (err) {
    await data.close();
    throw new DashboardStartError(`the cron jobs' tables cannot be opened: ${(err as Error).message}`);
  }
  const deps: DashboardDeps = {
    profile: opts.profile,
    env: opts.env,
    data,
    ...(cron ? { cron } : {}),
    auth: new DashboardAuth(token),
    hosts: new Set(),
    startedAt: Date.now(),
    version: opts.version,
  };
  const app = createApp(deps, loadAssets());
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
      s.once("error", reject);
    });
  } catch (err) {
    await data.close();
    throw new DashboardStartError(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }
  const bound = (server.address() as AddressInfo).port;
  for (const h of allowedHosts(host, bound)) deps.hosts.add(h);
  const present = () =>
    data.board.touchPresence().catch(() => {
      // Busy: the next beat says it.
    });
  await present();
  const beat = setInterval(present, PRESENCE_EVERY_MS);
  beat.unref();
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  let closed = false;
  return {
    url: `http://${shownHost}:${bound}`,
    port: bound,
    tokenFile,
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(beat);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await data.board.clearPresence().catch(() => {});
      await data.close();
    },
  };
}
