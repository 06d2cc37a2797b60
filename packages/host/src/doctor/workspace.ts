// `iris doctor`'s workspace check (SPEC T6): the configured backend answers, and for docker the
// session containers a killed Iris left behind (their owner process gone) are listed, and
// removed with --repair. Async and after the rest, like the endpoint probe.
import { dockerWorkspace, isWorkspaceUnavailable, orphanContainers, sshWorkspace } from "@iris/tools";
import { dockerSocket } from "../app/workspace-setup.js";
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
  if (t.backend === "ssh" && t.ssh) {
    const ws = sshWorkspace({
      host: t.ssh.host,
      port: t.ssh.port,
      user: t.ssh.user,
      keyPath: t.ssh.key_path.replace(/^~(?=\/|$)/, profile.env.HOME ?? "~"),
      knownHosts: t.ssh.known_hosts.replace(/^~(?=\/|$)/, profile.env.HOME ?? "~"),
      remoteDir: t.ssh.remote_dir,
      connectTimeoutS: t.ssh.connect_timeout_seconds,
    });
    try {
      await ws.connect();
      return [{ status: "ok", subject: "ssh workspace", message: `${ws.connection.target} answers` }];
    } catch (e) {
      return [{ status: "fail", subject: "ssh workspace", message: (e as Error).message }];
    } finally {
      await ws.close().catch(() => undefined);
    }
  }
  return [];
}
