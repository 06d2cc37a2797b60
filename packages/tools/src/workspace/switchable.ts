// The session's workspace as one object whose backend the user can change (`/workspace`), never
// the agent and never silently: the new backend is reached first (a down one leaves the session
// where it was, with the reason), only then is the old one closed (its processes killed, its
// container removed). Task directories start afresh: a path on one backend means nothing on another.
import type { BoundedRead } from "../fs/bounded-read.js";
import type { TaskCwds } from "../terminal/task-cwd.js";
import type {
  BackgroundProcesses,
  DirEntry,
  ExecOptions,
  ExecResult,
  FileStat,
  ReadOptions,
  WalkOptions,
  Workspace,
  WorkspaceKind,
} from "./types.js";

export class SwitchableWorkspace implements Workspace {
  constructor(private current: Workspace) {}

  /** The backend in use now. */
  get inner(): Workspace {
    return this.current;
  }

  /**
   * Reaches `next` (throws WorkspaceUnavailable when it is down, and nothing changes), then
   * closes the one in use. The caller makes sure no turn runs.
   */
  async switchTo(next: Workspace): Promise<void> {
    try {
      await next.connect?.();
    } catch (e) {
      await next.close().catch(() => undefined);
      throw e;
    }
    const old = this.current;
    this.current = next;
    await old.close().catch(() => undefined);
  }

  get kind(): WorkspaceKind {
    return this.current.kind;
  }
  get description(): string {
    return this.current.description;
  }
  get root(): string {
    return this.current.root;
  }
  get hostPaths(): boolean {
    return this.current.hostPaths;
  }
  get relaxesApprovals(): boolean {
    return this.current.relaxesApprovals === true;
  }
  get home(): string {
    return this.current.home;
  }
  get cwds(): TaskCwds {
    return this.current.cwds;
  }
  get processes(): BackgroundProcesses {
    return this.current.processes;
  }
  get cleanups(): Set<() => Promise<void>> {
    return this.current.cleanups;
  }
  connect(): Promise<void> {
    return this.current.connect?.() ?? Promise.resolve();
  }
  exec(o: ExecOptions): Promise<ExecResult> {
    return this.current.exec(o);
  }
  readFile(path: string, o: ReadOptions): Promise<BoundedRead> {
    return this.current.readFile(path, o);
  }
  writeFile(path: string, text: string, signal?: AbortSignal): Promise<number> {
    return this.current.writeFile(path, text, signal);
  }
  stat(path: string): Promise<FileStat | undefined> {
    return this.current.stat(path);
  }
  list(dir: string): Promise<DirEntry[]> {
    return this.current.list(dir);
  }
  walk(root: string, o?: WalkOptions): AsyncGenerator<string> {
    return this.current.walk(root, o);
  }
  realPath(path: string): Promise<string> {
    return this.current.realPath(path);
  }
  close(): Promise<void> {
    return this.current.close();
  }
}
