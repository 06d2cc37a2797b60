// `iris doctor` (SPEC K3): every check over one profile, in the order a person would fix them.
// Reads the profile without creating anything; only `repair` writes (to the store, append-only).
import type { RouteFlags } from "../app/route.js";
import { formatConfigErrors, loadProfile, ProfileNameError, resolveHome } from "../config/index.js";
import { checkCooldowns } from "./cooldowns.js";
import type { Endpoint } from "./endpoints.js";
import { fileChecks } from "./files.js";
import { checkGateway } from "./gateway.js";
import { checkHistory } from "./history.js";
import { checkRoutes } from "./routes.js";
import { checkShellKeys } from "./shell-keys.js";
import { checkPostgresStore } from "./store.js";
import { checkSummaryWindow } from "./summary.js";
import { type Finding, type Probe, systemProbe } from "./types.js";

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  profile?: string;
  route?: RouteFlags;
  repair?: boolean;
  probe?: Probe;
}

export interface DoctorResult {
  title: string;
  findings: Finding[];
  /** The resolved routes' endpoints, for the connection probe (endpoints.ts). */
  endpoints: Endpoint[];
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorResult> {
  const probe = opts.probe ?? systemProbe();
  let home: ReturnType<typeof resolveHome>;
  try {
    home = resolveHome({ env: opts.env, ...(opts.profile !== undefined ? { profile: opts.profile } : {}) });
  } catch (err) {
    if (!(err instanceof ProfileNameError)) throw err;
    return {
      title: "iris doctor",
      findings: [{ status: "fail", subject: "--profile", message: err.message }],
      endpoints: [],
    };
  }
  const title = `iris doctor · profile ${home.profile} (${home.root})`;
  if (!probe.stat(home.root)?.isDirectory)
    return { title, findings: fileChecks(probe, home.paths, home.root, false), endpoints: [] };

  const loaded = loadProfile({
    env: opts.env,
    ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
    create: false,
  });
  const holdsKeys = loaded.ok && Object.values(loaded.config.providers).some((p) => p.api_key !== undefined);
  const findings = fileChecks(probe, home.paths, home.root, holdsKeys);
  const endpoints: Endpoint[] = [];
  if (!loaded.ok) {
    findings.push({
      status: "fail",
      subject: "config.yaml",
      message: "invalid; routes and models were not checked",
      details: formatConfigErrors(loaded.errors).split("\n"),
      fix: `correct the key at the line named above in ${home.paths.config}`,
    });
  } else {
    // Load-time warnings (ignored .env lines, …); the file modes are checked above already.
    for (const w of loaded.warnings.filter((w) => !/readable by other/.test(w)))
      findings.push({ status: "warn", subject: "profile", message: w });
    const routes = checkRoutes(loaded, opts.route ?? {}, probe);
    findings.push(...routes.findings, checkSummaryWindow(loaded, routes.main));
    for (const r of routes.resolved) endpoints.push({ label: r.label, baseUrl: r.runtime.baseUrl });
  }
  findings.push(checkShellKeys(opts.env, home.paths.env));
  findings.push(checkGateway(probe, home.paths.gatewayPid));
  if (loaded.ok && loaded.config.store.backend === "postgres")
    findings.push(...(await checkPostgresStore(loaded)));
  else {
    findings.push(...(await checkCooldowns(home.paths.db)));
    findings.push(...(await checkHistory(home.paths.db, opts.repair === true)));
  }
  return { title, findings, endpoints };
}
