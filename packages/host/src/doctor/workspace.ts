// `iris doctor`'s workspace check (SPEC T6): the configured backend answers, and what a killed
// Iris left behind there (their owner process gone) is listed and removed with --repair: for
// docker its session containers, for ssh its process folders (and what still runs from them).
// Async and after the rest, like the endpoint probe.
import { dockerWorkspace, isWorkspaceUnavailable, orphanContainers } from "@iris/tools";
import { dockerSocket, profileSshWorkspace } from "../app/workspace-setup.js";
import type { Profile } from "../config/index.js";
import type { Finding } from "./types.js";

export async function checkWorkspace(profile: Profile, o: { repair?: boolean } = {}): Promise<Finding[]> {
  const t = profile.config.terminal;
  if (t.backend === "docker" && t.docker) {
    const socket = dockerSocket(profile.config, profile.env);
    const ws = dockerWorkspace({
      socket,
      image: t.docker.image,
      profile: profile.home.profile,
      scope: t.docker.scope,
      sessionId: "doctor",
      hostRoot: "/",
    });
    try {
      await ws.container.check();
    } catch (e) {
      return [
        {
          status: "fail",
          subject: "docker workspace",
          message: isWorkspaceUnavailable(e) ? e.message : String(e),
          fix: `start the engine on ${socket} (or set terminal.docker.socket) and have the image ${t.docker.image} on it`,
        },
      ];
    }
    const orphans = await orphanContainers(socket, profile.home.profile, { remove: o.repair === true });
    const findings: Finding[] = [
      {
        status: "ok",
        subject: "docker workspace",
        message: `engine on ${socket} answers; image ${t.docker.image} is there`,
      },
    ];
    if (orphans.length)
      findings.push({
        status: o.repair ? "ok" : "warn",
        subject: "docker containers",
        message: o.repair
          ? `removed ${orphans.length} container(s) left by an Iris process that is gone`
          : `${orphans.length} container(s) left by an Iris process that is gone`,
        details: orphans.map(
          (c) => `${c.id.slice(0, 12)} session ${c.session ?? "?"} (${c.owner ?? "?"}, ${c.state})`,
        ),
        ...(o.repair ? {} : { fix: "iris doctor --repair" }),
      });
    return findings;
  }
  const ssh = t.backend === "ssh" ? profileSshWorkspace(profile) : undefined;
  if (ssh) {
    try {
      // Reached, host key checked; not connect(), which would sweep what only --repair removes.
      await ssh.connection.get();
      const orphans = o.repair ? await ssh.processes.sweepOrphans() : await ssh.processes.orphans();
      const findings: Finding[] = [
        { status: "ok", subject: "ssh workspace", message: `${ssh.connection.target} answers` },
      ];
      if (orphans.length)
        findings.push({
          status: o.repair ? "ok" : "warn",
          subject: "ssh processes",
          message: o.repair
            ? `killed what ${orphans.length} Iris process(es) that are gone left running on ${ssh.connection.target}, and removed their folders`
            : `${orphans.length} Iris process(es) that are gone left folders (and maybe processes) on ${ssh.connection.target}`,
          details: orphans,
          ...(o.repair ? {} : { fix: "iris doctor --repair" }),
        });
      return findings;
    } catch (e) {
      return [{ status: "fail", subject: "ssh workspace", message: (e as Error).message }];
    } finally {
      await ssh.close().catch(() => undefined);
    }
  }
  return [];
}
