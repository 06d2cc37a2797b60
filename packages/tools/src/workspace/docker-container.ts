// The docker workspace's container, through the Engine API (dockerode; Docker and `podman system
// service` alike). Found by its labels before one is created, so a restart never makes a second
// one; created again when it is gone (removed by hand, engine restarted); removed when its scope
// ends. An engine that does not answer is WorkspaceUnavailable naming the socket, never a silent
// switch to another backend.
import { hostname } from "node:os";
import type Docker from "dockerode";
import { WorkspaceUnavailable } from "./errors.js";

let dockerode: Promise<typeof Docker> | undefined;

/** dockerode (with the gRPC and ssh2 libraries it requires) loads with the first docker workspace, not at every start. */
function engineClient(socketPath: string): Promise<Docker> {
  dockerode ??= import("dockerode").then((m) => m.default);
  return dockerode.then((Client) => new Client({ socketPath }));
}

export const LABEL_PROFILE = "iris.profile";
export const LABEL_SCOPE = "iris.scope";
export const LABEL_SESSION = "iris.session";
export const LABEL_ROOT = "iris.root";
/** host:pid of the Iris process that owns a session-scoped container (orphans are found by it). */
export const LABEL_OWNER = "iris.owner";

export interface DockerMount {
  host: string;
  container: string;
  readOnly?: boolean;
}

export interface DockerSettings {
  /** The Engine API's unix socket (Docker's /var/run/docker.sock or podman's). */
  socket: string;
  image: string;
  /** The profile's name (a label). */
  profile: string;
  /** session: one container per session, removed when it ends; profile: shared, kept running. */
  scope: "session" | "profile";
  /** The session's id (a label; what a session-scoped container is found by). */
  sessionId: string;
  /** The work folder on this machine; bind-mounted at the same path in the container. */
  hostRoot: string;
  mounts?: DockerMount[];
  network?: "none" | "bridge";
  memoryBytes?: number;
  pids?: number;
  /** With network none: the container's commands run without approval (policy.ts). */
  relaxApprovals?: boolean;
  /** Variables every command gets (terminal.env_passthrough); nothing else of this machine's. */
  env?: Readonly<Record<string, string>>;
}

const statusOf = (e: unknown) => (e as { statusCode?: number }).statusCode;
const isGone = (e: unknown) => statusOf(e) === 404;

export class DockerContainer {
  private client: Promise<Docker> | undefined;
  private id: string | undefined;
  private pending: Promise<string> | undefined;
  private closed = false;

  constructor(readonly settings: DockerSettings) {}

  /** The Engine API's client. */
  engine(): Promise<Docker> {
    this.client ??= engineClient(this.settings.socket);
    return this.client;
  }

  get target(): string {
    return `socket ${this.settings.socket}`;
  }

  unavailable(reason: string): WorkspaceUnavailable {
    return new WorkspaceUnavailable("docker", this.target, reason);
  }

  /** A failure of the engine call itself (no socket, refused, 5xx) as WorkspaceUnavailable. */
  engineError(e: unknown, what: string): Error {
    if (e instanceof WorkspaceUnavailable) return e;
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ECONNREFUSED" || code === "EACCES")
      return this.unavailable(
        `no container engine answers (${code}); start Docker or \`podman system service\``,
      );
    return this.unavailable(`${what}: ${(e as Error).message}`);
  }

  labels(): Record<string, string> {
    const s = this.settings;
    const l: Record<string, string> = {
      [LABEL_PROFILE]: s.profile,
      [LABEL_SCOPE]: s.scope,
      [LABEL_ROOT]: s.hostRoot,
    };
    if (s.scope === "session") {
      l[LABEL_SESSION] = s.sessionId;
      l[LABEL_OWNER] = `${hostname()}:${process.pid}`;
    }
    return l;
  }

  private filters(): Record<string, string[]> {
    const l = this.labels();
    const keys = [
      LABEL_PROFILE,
      LABEL_SCOPE,
      LABEL_ROOT,
      ...(this.settings.scope === "session" ? [LABEL_SESSION] : []),
    ];
    return { label: keys.map((k) => `${k}=${l[k]}`) };
  }

  /** The engine answers and has the image (session start); throws WorkspaceUnavailable if not. */
  async check(): Promise<void> {
    const docker = await this.engine();
    try {
      await docker.ping();
    } catch (e) {
      throw this.engineError(e, "ping failed");
    }
    try {
      await docker.getImage(this.settings.image).inspect();
    } catch (e) {
      if (isGone(e))
        throw this.unavailable(
          `the image ${this.settings.image} is not on the engine (pull or build it first)`,
        );
      throw this.engineError(e, "image inspect failed");
    }
  }

  /** The running container's id: found by label, started, or created. */
  get(): Promise<string> {
    if (this.closed) return Promise.reject(this.unavailable("the session's workspace is closed"));
    if (this.id) return Promise.resolve(this.id);
    this.pending ??= this.ensure().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The container went away under us: the next get() finds or creates it again. */
  forget(): void {
    this.id = undefined;
  }

  private async ensure(): Promise<string> {
    const docker = await this.engine();
    let found: Docker.ContainerInfo[];
    try {
      found = await docker.listContainers({ all: true, filters: this.filters() });
    } catch (e) {
      throw this.engineError(e, "listing containers failed");
    }
    const running = found.find((info) => info.State === "running");
    if (running) {
      this.id = running.Id;
      return running.Id;
    }
    for (const info of found) {
      // Stopped or dead: a fresh one is simpler than guessing what state it was left in.
      await docker
        .getContainer(info.Id)
        .remove({ force: true })
        .catch(() => undefined);
    }
    this.id = await this.create();
    return this.id;
  }

  private async create(): Promise<string> {
    const s = this.settings;
    const binds = [
      `${s.hostRoot}:${s.hostRoot}`,
      ...(s.mounts ?? []).map((m) => `${m.host}:${m.container}${m.readOnly ? ":ro" : ""}`),
    ];
    try {
      const c = await (await this.engine()).createContainer({
        Image: s.image,
        // PID 1 only waits; commands come as execs.
        Cmd: ["sleep", "2147483647"],
        Labels: this.labels(),
        WorkingDir: s.hostRoot,
        Env: Object.entries(s.env ?? {}).map(([k, v]) => `${k}=${v}`),
        HostConfig: {
          Binds: binds,
          NetworkMode: s.network ?? "none",
          Init: false,
          ...(s.memoryBytes ? { Memory: s.memoryBytes } : {}),
          ...(s.pids ? { PidsLimit: s.pids } : {}),
        },
      });
      await c.start();
      return c.id;
    } catch (e) {
      if (isGone(e))
        throw this.unavailable(`the image ${s.image} is not on the engine (pull or build it first)`);
      throw this.engineError(e, "creating the container failed");
    }
  }

  /**
   * Removes a session-scoped container; a profile-scoped one stays for the profile's other
   * sessions unless `lastUser` (docker-users.ts found no other live session in it).
   */
  async close(o: { lastUser?: boolean } = {}): Promise<void> {
    this.closed = true;
    const id = this.id ?? (await this.pending?.catch(() => undefined));
    this.id = undefined;
    if (!id || (this.settings.scope !== "session" && !o.lastUser)) return;
    await (await this.engine())
      .getContainer(id)
      .remove({ force: true })
      .catch(() => undefined);
  }
}

/** Whether an owner label names a process on this machine that is gone. */
export function ownerGone(owner: string | undefined): boolean {
  if (!owner) return false;
  const [host, pid] = owner.split(":");
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as { code?: string }).code === "ESRCH";
  }
}

export interface OrphanContainer {
  id: string;
  profile: string;
  session: string | undefined;
  owner: string | undefined;
  state: string;
}

/**
 * Session-scoped containers of a profile whose Iris process is gone (killed, crashed): what
 * `iris doctor` lists and what a new session removes (`remove: true`).
 */
export async function orphanContainers(
  socket: string,
  profile: string,
  o: { remove?: boolean } = {},
): Promise<OrphanContainer[]> {
  const docker = await engineClient(socket);
  const found = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_PROFILE}=${profile}`, `${LABEL_SCOPE}=session`] },
  });
  const orphans = found
    .filter((c) => ownerGone(c.Labels[LABEL_OWNER]))
    .map((c) => ({
      id: c.Id,
      profile,
      session: c.Labels[LABEL_SESSION],
      owner: c.Labels[LABEL_OWNER],
      state: c.State,
    }));
  if (o.remove)
    for (const c of orphans)
      await docker
        .getContainer(c.id)
        .remove({ force: true })
        .catch(() => undefined);
  return orphans;
}
