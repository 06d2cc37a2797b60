// Start-up of a one-conversation front end (the CLI): profile (config + .env, read once), main
// route, then the process (store, tools) and its first session.
// Problems a user can fix come back as a message and an exit code (SPEC K5), never a stack trace.
import { CONFIG_ERROR_EXIT_CODE, formatConfigErrors, loadProfile, type Profile } from "../config/index.js";
import { findLocalServers, noProviderMessage } from "./local-servers.js";
import { mcpStartProblems } from "./mcp-setup.js";
import { IrisProcess } from "./process.js";
import { type RouteFlags, resolveMainRoute } from "./route.js";
import { registerSecrets } from "./secrets-setup.js";
import type { Session } from "./session.js";
import { unknownToolsets } from "./tools-setup.js";

export interface BootOptions {
  env: Record<string, string | undefined>;
  profile?: string;
  route: RouteFlags;
  platform: string;
  source: string;
  cwd: string;
  yolo?: boolean;
  maxRounds?: number;
  /** `--toolsets a,b`: this run's toolsets for the platform, instead of config.yaml's. */
  toolsets?: string[];
  promptEdits?: { replace?: string; append?: string };
}

export type BootResult =
  | { ok: true; session: Session; process: IrisProcess; warnings: string[] }
  | { ok: false; exitCode: number; message: string };

export function loadProfileOrExit(
  opts: Pick<BootOptions, "env" | "profile"> & { lenient?: boolean },
): { ok: true; profile: Profile } | { ok: false; exitCode: number; message: string } {
  const profile = loadProfile({
    env: opts.env,
    ...(opts.profile ? { profile: opts.profile } : {}),
    ...(opts.lenient ? { lenient: true } : {}),
  });
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
  registerSecrets(profile.config, { ...opts.env, ...profile.env }, [route.runtime.apiKey]);
  // `--toolsets` replaces this platform's toolsets for this run.
  const config = opts.toolsets
    ? { ...profile.config, toolsets: { ...profile.config.toolsets, [opts.platform]: opts.toolsets } }
    : profile.config;
  const iris = await IrisProcess.open({
    profile: { ...profile, config },
    env: opts.env,
    platform: opts.platform,
    ...(opts.yolo ? { yolo: true } : {}),
  });
  const unknown = unknownToolsets(opts.toolsets, iris.tools);
  if (unknown) {
    await iris.close();
    return { ok: false, exitCode: 2, message: unknown };
  }
  const session = iris.openSession({
    runtime: route.runtime,
    source: opts.source,
    cwd: opts.cwd,
    ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
    route: opts.route,
    ...(opts.promptEdits ? { promptEdits: opts.promptEdits } : {}),
  });
  const mcp = mcpStartProblems(iris.tools.mcp);
  return { ok: true, session, process: iris, warnings: [...profile.warnings, ...route.notes, ...mcp] };
}
