// `iris doctor [--repair]`: the report alone on stdout, exit 0 when all is well, 1 otherwise.

import {
  checkEndpoints,
  checkMcpServers,
  checkWorkspace,
  exitCodeOf,
  formatReport,
  loadProfile,
  routeFlagsOf,
  runDoctor,
} from "@iris/host";
import type { GlobalFlags } from "../flags.js";

type Finding = Awaited<ReturnType<typeof checkMcpServers>>[number];

function mcpSkipped(names: string[]): Finding[] {
  return names.map((name) => ({
    status: "warn",
    subject: `MCP server ${name}`,
    message: "not started (--offline); `iris mcp test` checks it",
  }));
}

export async function doctorCommand(
  flags: GlobalFlags,
  opts: { repair?: boolean; offline?: boolean },
): Promise<number> {
  const { title, findings, endpoints } = await runDoctor({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    route: routeFlagsOf(flags),
    ...(opts.repair ? { repair: true } : {}),
  });
  // Whether anything listens at each endpoint (2 s each, in parallel); --offline skips it.
  if (!opts.offline) findings.push(...(await checkEndpoints(endpoints)));
  // MCP servers are started to be checked (a stdio server may fetch packages, an HTTP one is
  // remote), so this part is async, runs after the rest, and --offline skips it too.
  const profile = loadProfile({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    create: false,
  });
  if (profile.ok && opts.offline) findings.push(...mcpSkipped(Object.keys(profile.config.mcp_servers)));
  else if (profile.ok) findings.push(...(await checkMcpServers(profile)));
  if (profile.ok && !opts.offline)
    findings.push(...(await checkWorkspace(profile, { repair: opts.repair === true })));
  process.stdout.write(formatReport(title, findings));
  return exitCodeOf(findings);
}
