// The local workspace: today's behaviour. Commands run with /bin/bash on this machine in their
// own process group, with the agent's environment minus its secrets (terminal/env.ts); files
// are this machine's disk, read bounded (fs/bounded-read.ts) and replaced atomically.
import { stat as fsStat, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { realPath as resolveReal } from "../approval/locations.js";
import { atomicWriteFile } from "../fs/atomic-write.js";
import { readRegularFile } from "../fs/bounded-read.js";
import { LOCAL_WALK_FS, walkFiles } from "../fs/walk.js";
import { commandEnv } from "../terminal/env.js";
import { runForeground } from "../terminal/local-backend.js";
import { TaskCwds } from "../terminal/task-cwd.js";
import { LocalProcesses } from "./local-processes.js";
import type { ExecOptions, ExecResult, FileStat, ReadOptions, WalkOptions, Workspace } from "./types.js";

export interface LocalWorkspaceOptions {
  /** The work folder (default: the process's cwd). */
  root?: string;
  /** The environment commands get (default: the process's, secrets removed). */
  env?: () => NodeJS.ProcessEnv;
}

/** The account's home folder, looked up once: without $HOME, os.homedir() reads the password
 * database on every call, and an API server makes a workspace per request. */
let accountHome: string | undefined;

/** $HOME, else the account's home folder (what os.homedir() answers). */
function homeFolder(): string {
  const fromEnv = process.env.HOME;
  if (fromEnv) return fromEnv;
  accountHome ??= homedir();
  return accountHome;
}

export class LocalWorkspace implements Workspace {
  readonly kind: "local" | "editor" = "local";
  readonly root: string;
  readonly home = homeFolder();
  readonly hostPaths = true;
  readonly cwds = new TaskCwds();
  readonly processes: LocalProcesses;
  readonly cleanups = new Set<() => Promise<void>>();
  private readonly env: () => NodeJS.ProcessEnv;

  constructor(o: LocalWorkspaceOptions = {}) {
    this.root = o.root ?? process.cwd();
    this.env = o.env ?? (() => commandEnv());
    this.processes = new LocalProcesses(this.env);
  }

  get description(): string {
    return "local (this machine)";
  }

  exec(o: ExecOptions): Promise<ExecResult> {
    return runForeground({
      command: o.command,
      cwd: o.cwd,
      env: { ...this.env(), ...(o.env ?? {}) },
      timeoutMs: o.timeoutMs,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.caps ? { caps: o.caps } : {}),
      ...(o.onData ? { onData: o.onData } : {}),
    });
  }

  readFile(path: string, o: ReadOptions) {
    return readRegularFile(path, o);
  }

  writeFile(path: string, text: string, signal?: AbortSignal): Promise<number> {
    return atomicWriteFile(path, text, signal);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const s = await fsStat(path).catch(() => undefined);
    if (!s) return undefined;
    const type = s.isFile() ? "file" : s.isDirectory() ? "directory" : "other";
    return { type, size: s.size, mtimeMs: s.mtimeMs };
  }

  list(dir: string) {
    return LOCAL_WALK_FS.list(dir);
  }

  walk(root: string, o: WalkOptions = {}): AsyncGenerator<string> {
    return walkFiles(root, o, LOCAL_WALK_FS);
  }

  async realPath(path: string): Promise<string> {
    return (await realpath(path).catch(() => undefined)) ?? resolveReal(path, "/") ?? path;
  }

  async close(): Promise<void> {
    const cleanups = [...this.cleanups];
    this.cleanups.clear();
    await Promise.all([this.processes.closeAll(), ...cleanups.map((c) => c().catch(() => undefined))]);
    this.cwds.clearAll();
  }
}

export function localWorkspace(o: LocalWorkspaceOptions = {}): LocalWorkspace {
  return new LocalWorkspace(o);
}
