// Start-up of any front end: profile (config + .env, read once), main route, store, tools, host.
// Problems a user can fix come back as a message and an exit code (SPEC K5), never a stack trace.
import { openStore } from "@iris/store";
import type { ApprovalJudge } from "@iris/tools";
import { CONFIG_ERROR_EXIT_CODE, formatConfigErrors, loadProfile, type Profile } from "../config/index.js";
import { makeApprovalJudge } from "./approval-judge.js";
import { SessionHost } from "./host.js";
import { findLocalServers, noProviderMessage } from "./local-servers.js";
import { type RouteFlags, resolveMainRoute } from "./route.js";
import { registerSecrets } from "./secrets-setup.js";
import { setUpTools, unknownToolsets } from "./tools-setup.js";

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
  | { ok: true; host: SessionHost; warnings: string[] }
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
  registerSecrets(profile.config, { ...opts.env, ...profile.env }, [route.runtime.apiKey]);
  // The judge needs the host's model client, and the host needs the tools: bound once both exist.
  let judge: ApprovalJudge | undefined;
  const config = opts.toolsets
    ? { ...profile.config, toolsets: { ...profile.config.toolsets, [opts.platform]: opts.toolsets } }
    : profile.config;
  const tools = await setUpTools({
    config,
    configPath: profile.home.paths.config,
    platform: opts.platform,
    ...(opts.yolo ? { yolo: true } : {}),
    judge: (request) => (judge ? judge(request) : Promise.resolve("escalate")),
  });
  const unknown = unknownToolsets(opts.toolsets, tools);
  if (unknown) return { ok: false, exitCode: 2, message: unknown };
  const store = openStore(profile.home.paths.db);
  const host = new SessionHost({
    profile,
    runtime: route.runtime,
    store,
    tools,
    source: opts.source,
    cwd: opts.cwd,
    ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
    route: opts.route,
    ...(opts.promptEdits ? { promptEdits: opts.promptEdits } : {}),
  });
  judge = makeApprovalJudge(() => host.judgeModel());
  return { ok: true, host, warnings: [...profile.warnings, ...route.notes] };
}
