// The workspace a session's tools run in, chosen by the profile's `terminal.backend` (or the
// session's own choice, `/workspace`): this machine, a remote host over SSH, or a container. A
// remote or container one gets none of this machine's environment, only the variables
// `terminal.env_passthrough` names (SPEC T6).
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  dockerWorkspace,
  localWorkspace,
  type SshWorkspace,
  SwitchableWorkspace,
  sshWorkspace,
  type Workspace,
} from "@iris/tools";
import type { IrisConfig, Profile } from "../config/index.js";

export type WorkspaceBackend = "local" | "ssh" | "docker";
export const WORKSPACE_BACKENDS: readonly WorkspaceBackend[] = ["local", "ssh", "docker"];

/** The Engine API socket: the config's, else $DOCKER_HOST's unix path, else Docker's default. */
export function dockerSocket(config: IrisConfig, env: Record<string, string>): string {
  const configured = config.terminal.docker?.socket;
  if (configured) return configured.replace(/^unix:\/\//, "");
  const host = env.DOCKER_HOST;
  if (host?.startsWith("unix://")) return host.slice("unix://".length);
  return "/var/run/docker.sock";
}

/** Which backends this config can run (a block of its own for ssh and docker). */
export function availableBackends(config: IrisConfig): WorkspaceBackend[] {
  const t = config.terminal;
  return WORKSPACE_BACKENDS.filter((b) => b === "local" || (b === "ssh" ? !!t.ssh : !!t.docker));
}

/** Which workspace the config chooses, in words (`iris context`, the prompt); remoteDir when remote. */
export function workspaceOfConfig(
  config: IrisConfig,
  backend: WorkspaceBackend = config.terminal.backend,
): {
  backend: string;
  description: string;
  remoteDir?: string;
} {
  const t = config.terminal;
  if (backend === "ssh" && t.ssh)
    return {
      backend: "ssh",
      description: `ssh ${t.ssh.user}@${t.ssh.host}:${t.ssh.port} in ${t.ssh.remote_dir}`,
      remoteDir: t.ssh.remote_dir,
    };
  if (backend === "docker" && t.docker)
    return {
      backend: "docker",
      description: `docker ${t.docker.image} (network ${t.docker.network}, ${t.docker.scope} container), work folder bind-mounted`,
    };
  return { backend: "local", description: "local (this machine)" };
}

/** The workspace in use, as the frozen prompt says it (an ssh one's folder is the tools' cwd). */
export function promptWorkspaceOf(ws: Workspace): {
  backend: string;
  description: string;
  remoteDir?: string;
} {
  return {
    backend: ws.kind,
    description: ws.description,
    ...(ws.kind === "ssh" ? { remoteDir: ws.root } : {}),
  };
}

function expandHome(p: string, env: Record<string, string>): string {
  const home = env.HOME || homedir();
  if (p === "~") return home;
  return p.startsWith("~/") ? join(home, p.slice(2)) : p;
}

/** "512m" → bytes (the schema has checked the shape). */
export function parseByteSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(s.trim());
  if (!m) throw new Error(`not a size: ${s}`);
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[
    (m[2] ?? "").toLowerCase() as "" | "k" | "m" | "g"
  ];
  return Math.round(Number(m[1]) * unit);
}

function passthrough(profile: Profile): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of profile.config.terminal.env_passthrough) {
    const v = profile.env[name];
    if (v !== undefined) env[name] = v;
  }
  return env;
}

/**
 * A new workspace for one session working in `cwd` (the local folder), switchable later by the
 * user (`/workspace`). Its backend is reached at once (connect): one that is down is said at
 * session start and by the first turn (WorkspaceUnavailable), never by running the command
 * somewhere else.
 */
export function sessionWorkspace(
  profile: Profile,
  cwd: string,
  backend?: WorkspaceBackend,
): SwitchableWorkspace {
  return new SwitchableWorkspace(backendWorkspace(profile, cwd, backend));
}

/**
 * The session's workspace moved to another configured backend (`/workspace NAME`): the new one is
 * reached first, so one that is down changes nothing and says why. Its description.
 */
export async function switchSessionWorkspace(
  ws: Workspace,
  profile: Profile,
  cwd: string,
  backend: WorkspaceBackend,
): Promise<string> {
  if (!(ws instanceof SwitchableWorkspace)) throw new Error("this session's workspace cannot be switched");
  if (!availableBackends(profile.config).includes(backend))
    throw new Error(`the ${backend} workspace is not configured: add terminal.${backend} to config.yaml`);
  await ws.switchTo(backendWorkspace(profile, cwd, backend));
  return ws.description;
}

/** An ssh workspace on terminal.ssh (`iris doctor`'s too); undefined when none is configured. */
export function profileSshWorkspace(profile: Profile): SshWorkspace | undefined {
  const ssh = profile.config.terminal.ssh;
  if (!ssh) return undefined;
  return sshWorkspace({
    host: ssh.host,
    port: ssh.port,
    user: ssh.user,
    keyPath: expandHome(ssh.key_path, profile.env),
    knownHosts: expandHome(ssh.known_hosts, profile.env),
    remoteDir: ssh.remote_dir,
    connectTimeoutS: ssh.connect_timeout_seconds,
    env: passthrough(profile),
  });
}

function backendWorkspace(profile: Profile, cwd: string, backend?: WorkspaceBackend): Workspace {
  const t = profile.config.terminal;
  const chosen = backend ?? t.backend;
  const ssh = chosen === "ssh" ? profileSshWorkspace(profile) : undefined;
  if (ssh) {
    void ssh.connect().catch(() => undefined);
    return ssh;
  }
  if (chosen === "docker" && t.docker) {
    const d = t.docker;
    const ws = dockerWorkspace({
      socket: dockerSocket(profile.config, profile.env),
      image: d.image,
      profile: profile.home.profile,
      scope: d.scope,
      sessionId: randomUUID(),
      hostRoot: cwd,
      mounts: d.mounts.map((m) => ({
        host: expandHome(m.host, profile.env),
        container: m.container,
        readOnly: m.read_only,
      })),
      network: d.network,
      relaxApprovals: d.relax_approvals,
      ...(d.memory ? { memoryBytes: parseByteSize(d.memory) } : {}),
      ...(d.pids ? { pids: d.pids } : {}),
      env: passthrough(profile),
    });
    void ws.connect().catch(() => undefined);
    return ws;
  }
  if (chosen !== "local")
    throw new Error(`the ${chosen} workspace is not configured: add terminal.${chosen} to config.yaml`);
  return localWorkspace({ root: cwd });
}
