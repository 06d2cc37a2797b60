// The workspace a session's tools run in, chosen by the profile's `terminal.backend`: this
// machine, or a remote host over SSH. A remote one gets none of this machine's environment, only
// the variables `terminal.env_passthrough` names (SPEC T6).
import { homedir } from "node:os";
import { join } from "node:path";
import { localWorkspace, sshWorkspace, type Workspace } from "@iris/tools";
import type { IrisConfig, Profile } from "../config/index.js";

/** Which workspace the config chooses, in words (`iris context`, the prompt); remoteDir when remote. */
export function workspaceOfConfig(config: IrisConfig): {
  backend: string;
  description: string;
  remoteDir?: string;
} {
  const t = config.terminal;
  if (t.backend === "ssh" && t.ssh)
    return {
      backend: "ssh",
      description: `ssh ${t.ssh.user}@${t.ssh.host}:${t.ssh.port} in ${t.ssh.remote_dir}`,
      remoteDir: t.ssh.remote_dir,
    };
  return { backend: "local", description: "local (this machine)" };
}

function expandHome(p: string, env: Record<string, string>): string {
  const home = env.HOME || homedir();
  if (p === "~") return home;
  return p.startsWith("~/") ? join(home, p.slice(2)) : p;
}

/** A new workspace for one session working in `cwd` (the local folder). */
export function sessionWorkspace(profile: Profile, cwd: string): Workspace {
  const t = profile.config.terminal;
  if (t.backend === "ssh" && t.ssh) {
    const env: Record<string, string> = {};
    for (const name of t.env_passthrough) {
      const v = profile.env[name];
      if (v !== undefined) env[name] = v;
    }
    const ws = sshWorkspace({
      host: t.ssh.host,
      port: t.ssh.port,
      user: t.ssh.user,
      keyPath: expandHome(t.ssh.key_path, profile.env),
      knownHosts: expandHome(t.ssh.known_hosts, profile.env),
      remoteDir: t.ssh.remote_dir,
      connectTimeoutS: t.ssh.connect_timeout_seconds,
      env,
    });
    // Connect as the session starts: a host that is down or unknown is said by the first call
    // (WorkspaceUnavailable), never by running the command somewhere else.
    void ws.connect().catch(() => undefined);
    return ws;
  }
  return localWorkspace({ root: cwd });
}
