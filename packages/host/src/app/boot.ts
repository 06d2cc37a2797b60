// Start-up of a one-conversation front end (the CLI): profile (config + .env, read once), main
// route, then the process (store, tools) and its first session.
// Problems a user can fix come back as a message and an exit code (SPEC K5), never a stack trace.
import { CONFIG_ERROR_EXIT_CODE, formatConfigErrors, loadProfile, type Profile } from "../config/index.js";
import { findLocalServers, noProviderMessage } from "./local-servers.js";
import { IrisProcess } from "./process.js";
import { type RouteFlags, resolveMainRoute } from "./route.js";
import type { Session } from "./session.js";

export interface BootOptions {
  env: Record<string, string | undefined>;
  profile?: string;
  route: RouteFlags;
  platform: string;
  source: string;
  cwd: string;
  yolo?: boolean;
  maxRounds?: number;
}

export type BootResult =
  | { ok: true; host: Session; process: IrisProcess; warnings: string[] }
  | { ok: false; exitCode: number; message: string };

export function loadProfileOrExit(
  opts: Pick<BootOptions, "env" | "profile">,
): { ok: true; profile: Profile } | { ok: false; exitCode: number; message: string } {
  const profile = loadProfile({ env: opts.env, ...(opts.profile ? { profile: opts.profile } : {}) });
  if (!profile.ok)
    return { ok: false, exitCode: CONFIG_ERROR_EXIT_CODE, message: formatConfigErrors(profile.errors) };
  return { ok: true, profile };
}

export async function boot(opts: BootOptions): Promise<BootResult> {
  const loaded = loadProfileOrExit(opts);
  if (!loaded.ok) return loaded;
  const { profile } = loaded;
  const route = resolveMainRoute(opts.route, profile.config, profile.env);
  if (!route.ok) {
    const servers = /no provider chosen/.test(route.error) ? await findLocalServers() : [];
    return { ok: false, exitCode: 2, message: noProviderMessage(route.error, servers) };
  }
  const iris = await IrisProcess.open({
    profile,
    env: opts.env,
    platform: opts.platform,
    ...(opts.yolo ? { yolo: true } : {}),
  });
  const host = iris.openSession({
    runtime: route.runtime,
    source: opts.source,
    cwd: opts.cwd,
    ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
    route: opts.route,
  });
  return { ok: true, host, process: iris, warnings: [...profile.warnings, ...route.notes] };
}
