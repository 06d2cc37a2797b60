// The docker workspace (Docker or Podman through the Engine API): commands run in the session's
// container (docker-container.ts), each an exec of its own (docker-exec.ts). The work folder is
// bind-mounted at the same path, so the session's cwd is valid in the container and the file
// tools read and write the very files its commands see: inside the work folder through this
// machine's disk, elsewhere through execs in the container (docker-files.ts).
import path from "node:path";
import type { BoundedRead } from "../fs/bounded-read.js";
import { walkFiles } from "../fs/walk.js";
import { TaskCwds } from "../terminal/task-cwd.js";
import { DockerContainer, type DockerSettings, orphanContainers } from "./docker-container.js";
import { dockerExec } from "./docker-exec.js";
import {
  containerList,
  containerRead,
  containerRealPath,
  containerStat,
  containerWrite,
} from "./docker-files.js";
import { joinContainer, leaveContainer } from "./docker-users.js";
import { LocalWorkspace } from "./local.js";
import { ShellProcesses } from "./shell-processes.js";
import type {
  DirEntry,
  ExecOptions,
  ExecResult,
  FileStat,
  ReadOptions,
  WalkOptions,
  Workspace,
} from "./types.js";

export class DockerWorkspace implements Workspace {
  readonly kind = "docker" as const;
  readonly hostPaths = true;
  readonly home = "/root";
  readonly cwds = new TaskCwds();
  readonly cleanups = new Set<() => Promise<void>>();
  readonly container: DockerContainer;
  readonly processes: ShellProcesses;
  /** The work folder's files, this machine's side of the bind mount. */
  private readonly mounted: LocalWorkspace;
  private connecting: Promise<void> | undefined;

  constructor(readonly settings: DockerSettings) {
    this.container = new DockerContainer(settings);
    this.processes = new ShellProcesses((o) => this.exec(o), "docker");
    this.mounted = new LocalWorkspace({ root: settings.hostRoot, env: () => ({}) });
  }

  get relaxesApprovals(): boolean {
    return this.settings.relaxApprovals === true && (this.settings.network ?? "none") === "none";
  }

  get root(): string {
    return this.settings.hostRoot;
  }

  get description(): string {
    const s = this.settings;
    return `docker ${s.image} (network ${s.network ?? "none"}, ${s.scope} container) via ${s.socket}, work folder ${s.hostRoot}`;
  }

  /**
   * Session start: the engine answers and has the image (else WorkspaceUnavailable naming the
   * socket), the profile's containers left by a killed Iris are removed, this session's is made.
   */
  connect(): Promise<void> {
    this.connecting ??= (async () => {
      await this.container.check();
      await orphanContainers(this.settings.socket, this.settings.profile, { remove: true }).catch(
        () => undefined,
      );
      await this.container.get();
      if (this.settings.scope === "profile") await joinContainer(this.container);
      // A profile-scoped container outlives its sessions: a killed Iris's processes in it go.
      await this.processes.sweepOrphans().catch(() => undefined);
    })().catch((e: unknown) => {
      // Tried again by the next call: the engine may be back.
      this.connecting = undefined;
      throw e;
    });
    return this.connecting;
  }

  exec(o: ExecOptions): Promise<ExecResult> {
    return dockerExec(this.container, o);
  }

  /** True when the path is in the bind-mounted work folder (after symlinks, on this machine). */
  private async inMount(file: string): Promise<boolean> {
    const root = this.settings.hostRoot;
    const inside = (p: string) => p === root || p.startsWith(root.endsWith("/") ? root : `${root}/`);
    if (!inside(path.posix.normalize(file))) return false;
    return inside(await this.mounted.realPath(file));
  }

  async readFile(file: string, o: ReadOptions): Promise<BoundedRead> {
    return (await this.inMount(file))
      ? this.mounted.readFile(file, o)
      : containerRead(this.container, file, o);
  }

  async writeFile(file: string, text: string, signal?: AbortSignal): Promise<number> {
    if (await this.inMount(file)) return this.mounted.writeFile(file, text, signal);
    return containerWrite(this.container, file, text);
  }

  async stat(file: string): Promise<FileStat | undefined> {
    return (await this.inMount(file)) ? this.mounted.stat(file) : containerStat(this.container, file);
  }

  async list(dir: string): Promise<DirEntry[]> {
    return (await this.inMount(dir)) ? this.mounted.list(dir) : containerList(this.container, dir);
  }

  walk(root: string, o: WalkOptions = {}): AsyncGenerator<string> {
    return walkFiles(root, o, {
      list: (d) => this.list(d),
      readText: (f) =>
        this.readFile(f, { maxBytes: 1024 * 1024 }).then((r) => (r.ok ? r.data.toString("utf8") : undefined)),
    });
  }

  async realPath(file: string): Promise<string> {
    return (await this.inMount(file)) ? this.mounted.realPath(file) : containerRealPath(this.container, file);
  }

  async close(): Promise<void> {
    const cleanups = [...this.cleanups];
    this.cleanups.clear();
    await Promise.all([
      this.processes.closeAll().catch(() => undefined),
      ...cleanups.map((c) => c().catch(() => undefined)),
    ]);
    this.cwds.clearAll();
    // A profile-scoped container is stopped by the last of the profile's sessions to end.
    const lastUser =
      this.settings.scope === "profile" && this.connecting !== undefined
        ? await leaveContainer(this.container).catch(() => false)
        : false;
    await this.container.close({ lastUser });
  }
}

export function dockerWorkspace(settings: DockerSettings): DockerWorkspace {
  return new DockerWorkspace(settings);
}
