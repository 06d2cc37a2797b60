// The Workspace port (SPEC T; ARCHITECTURE.md "Tools"): where a session's tools run commands and
// touch files. Every tool goes through it (no tool calls `fs` or `child_process` itself), so the
// same terminal, process and file tools run on this machine, in an editor over ACP, in a
// container or on a remote host. The working directory is tracked in-band (cwd-marker.ts).
import type { BoundedRead } from "../fs/bounded-read.js";
import type { OutputCaps } from "../terminal/output-caps.js";
import type { TaskCwds } from "../terminal/task-cwd.js";

export type WorkspaceKind = "local" | "editor" | "ssh" | "docker";

export interface ExecOptions {
  /** A bash command line. */
  command: string;
  /** Where it starts, a path on the workspace's side. */
  cwd: string;
  /** Variables added to the workspace's own environment for this command. */
  env?: Readonly<Record<string, string>>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output as it arrives (stdout and stderr interleaved), the cwd marker already removed. */
  onData?: (chunk: string) => void;
  caps?: OutputCaps;
}

export interface ExecResult {
  /** stdout and stderr interleaved in arrival order, capped. */
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The shell's working directory at exit, read from the in-band marker when it exited normally. */
  finalCwd?: string;
  durationMs: number;
}

export interface FileStat {
  type: "file" | "directory" | "symlink" | "other";
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  type: FileStat["type"];
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop after this many files have been yielded. */
  maxFiles?: number;
  /** Follow .gitignore files (default true). */
  gitignore?: boolean;
}

export interface ReadOptions {
  maxBytes: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A background process as the process tool shows it. */
export interface ProcessInfo {
  id: string;
  /** Its pid on the workspace's side. */
  pid: number;
  command: string;
  cwd: string;
  taskId: string;
  startedAt: number;
  endedAt?: number;
  exitCode: number | null;
  signal: string | null;
  running: boolean;
  /** Set when the process tool asked for the kill. */
  killed: boolean;
}

export interface StartProcessOptions {
  command: string;
  cwd: string;
  taskId: string;
  env?: Readonly<Record<string, string>>;
}

/** The session's background processes on its workspace (start, poll, kill, list). */
export interface BackgroundProcesses {
  start(o: StartProcessOptions): Promise<ProcessInfo>;
  list(): Promise<ProcessInfo[]>;
  get(id: string): Promise<ProcessInfo | undefined>;
  /** New output since the previous poll; `skipped` bytes fell out of the buffer unseen. */
  poll(id: string): Promise<{ text: string; skipped: number }>;
  /** Everything still buffered, and how many earlier bytes were dropped. */
  buffered(id: string): Promise<{ text: string; dropped: number }>;
  write(id: string, data: string): Promise<void>;
  /** True when the process exited, false on timeout or abort. */
  wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Kills its whole process group and waits (bounded) until it is gone. */
  kill(id: string): Promise<void>;
  /** Kills every process still running and forgets them all (the session ends). */
  closeAll(): Promise<void>;
}

export interface Workspace {
  readonly kind: WorkspaceKind;
  /** One line for `iris context` and the prompt: which workspace, where. */
  readonly description: string;
  /** The work folder on the workspace's side: where commands start and relative paths point. */
  readonly root: string;
  /**
   * Paths here are this machine's (local, editor), so the session's cwd is valid in it; else
   * (ssh) a task without a `cd` of its own works in `root`.
   */
  readonly hostPaths: boolean;
  /**
   * Commands here reach nothing beyond the workspace (a container without network) and the config
   * lets them run without approval (terminal.docker.relax_approvals). Absent: false.
   */
  readonly relaxesApprovals?: boolean;
  /** What `~` means in a path the model gives (the home on the workspace's side). */
  readonly home: string;
  /** The working directory of each task (a `cd` in a task's command carries to its next call). */
  readonly cwds: TaskCwds;
  readonly processes: BackgroundProcesses;
  /** Other per-session things closed with the workspace (the session's browser context). */
  readonly cleanups: Set<() => Promise<void>>;
  /**
   * Reaches the backend (session start): throws WorkspaceUnavailable when it is down, naming
   * what was tried. Backends with nothing to reach (local, editor) have none.
   */
  connect?(): Promise<void>;
  /** Runs one command to its end; throws WorkspaceUnavailable when the backend is down. */
  exec(o: ExecOptions): Promise<ExecResult>;
  /** A regular file's bytes, bounded in size and time. */
  readFile(path: string, o: ReadOptions): Promise<BoundedRead>;
  /** Replaces a file whole (parents created, symlinks followed); the bytes written. */
  writeFile(path: string, text: string, signal?: AbortSignal): Promise<number>;
  /** Undefined when nothing is there. Symlinks are followed. */
  stat(path: string): Promise<FileStat | undefined>;
  /** A folder's entries (symlinks reported as such); throws when it cannot be read. */
  list(dir: string): Promise<DirEntry[]>;
  /** Absolute paths of the files under `root` (see fs/walk.ts for what is skipped). */
  walk(root: string, o?: WalkOptions): AsyncGenerator<string>;
  /** The path with symlinks resolved; a part that does not exist yet is kept as written. */
  realPath(path: string): Promise<string>;
  /** Ends what the workspace holds for the session: processes, cleanups, connections. */
  close(): Promise<void>;
}
