// The ssh workspace: commands over one persistent shell (ssh-shell.ts), files over SFTP, the
// host key checked against known_hosts (ssh-connection.ts). A connection that dropped is opened
// again on the next call, and the task directories, kept here, carry over.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { SFTPWrapper } from "ssh2";
import type { BoundedRead } from "../fs/bounded-read.js";
import { walkFiles } from "../fs/walk.js";
import { TaskCwds } from "../terminal/task-cwd.js";
import { ShellProcesses } from "./shell-processes.js";
import { SshConnection, type SshSettings } from "./ssh-connection.js";
import { SshShell } from "./ssh-shell.js";
import type {
  DirEntry,
  ExecOptions,
  ExecResult,
  FileStat,
  ReadOptions,
  WalkOptions,
  Workspace,
} from "./types.js";

const NO_SUCH_FILE = 2;
const READ_TIMEOUT_MS = 30_000;

type Attrs = { mode: number; size: number; mtime: number; isDirectory(): boolean; isFile(): boolean };

function typeOf(a: {
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink?(): boolean;
}): FileStat["type"] {
  if (a.isDirectory()) return "directory";
  if (a.isFile()) return "file";
  return a.isSymbolicLink?.() ? "symlink" : "other";
}

const isMissing = (e: unknown) => (e as { code?: number }).code === NO_SUCH_FILE;

export class SshWorkspace implements Workspace {
  readonly kind = "ssh" as const;
  readonly hostPaths = false;
  readonly cwds = new TaskCwds();
  readonly cleanups = new Set<() => Promise<void>>();
  readonly connection: SshConnection;
  readonly processes: ShellProcesses;
  private readonly shell: SshShell;
  private knownHome: string | undefined;
  private swept = false;

  constructor(readonly settings: SshSettings) {
    this.connection = new SshConnection(settings);
    this.processes = new ShellProcesses((o) => this.exec(o), "ssh");
    this.shell = new SshShell(this.connection, this.processes.dir);
  }

  get description(): string {
    return `ssh ${this.connection.target} in ${this.settings.remoteDir}`;
  }

  get root(): string {
    return this.settings.remoteDir;
  }

  get home(): string {
    return this.knownHome ?? this.settings.remoteDir;
  }

  /**
   * Connects now (session start), so a host that is down or unknown is said at once, and kills
   * what sessions of a killed Iris left running there (their background processes).
   */
  async connect(): Promise<void> {
    this.knownHome = (await this.connection.get()).home;
    if (!this.swept) {
      this.swept = true;
      await this.processes.sweepOrphans().catch(() => undefined);
    }
  }

  /**
   * One SFTP request. A failure that is not an SFTP status (no such file, permission denied) means
   * the connection broke: it is opened again and the request sent once more; a second such
   * failure says the workspace is unavailable.
   */
  private async op<T>(
    fn: (sftp: SFTPWrapper, cb: (err: Error | null | undefined, v: T) => void) => void,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const link = await this.connection.get();
      this.knownHome = link.home;
      try {
        return await new Promise<T>((resolve, reject) =>
          fn(link.sftp, (err, v) => (err ? reject(err) : resolve(v))),
        );
      } catch (e) {
        if (typeof (e as { code?: unknown }).code === "number") throw e;
        this.connection.drop(link);
        if (attempt > 0) throw this.connection.unavailable(`SFTP failed: ${(e as Error).message}`);
      }
    }
  }

  exec(o: ExecOptions): Promise<ExecResult> {
    return this.shell.exec(o);
  }

  async readFile(file: string, o: ReadOptions): Promise<BoundedRead> {
    let attrs: Attrs;
    try {
      attrs = await this.op<Attrs>((sftp, cb) => sftp.stat(file, cb));
    } catch (e) {
      if (isMissing(e)) return { ok: false, reason: "missing", message: `file not found: ${file}` };
      return { ok: false, reason: "error", message: `cannot open ${file}: ${(e as Error).message}` };
    }
    if (attrs.isDirectory()) return { ok: false, reason: "directory", message: `${file} is a directory` };
    if (!attrs.isFile())
      return {
        ok: false,
        reason: "special",
        message: `${file} is not a regular file; only regular files are read`,
      };
    if (attrs.size > o.maxBytes)
      return {
        ok: false,
        reason: "too_big",
        message: `${file} is ${attrs.size} bytes, over the ${o.maxBytes}-byte limit`,
      };
    const ms = o.timeoutMs ?? READ_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<BoundedRead>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            reason: "timeout",
            message: `${file}: reading took longer than ${ms / 1000} s`,
          }),
        ms,
      );
    });
    const read = this.op<Buffer>((sftp, cb) => sftp.readFile(file, cb)).then(
      (data): BoundedRead =>
        data.length > o.maxBytes
          ? { ok: false, reason: "too_big", message: `${file} is over the ${o.maxBytes}-byte limit` }
          : { ok: true, data },
      (e: Error): BoundedRead => ({
        ok: false,
        reason: "error",
        message: `cannot read ${file}: ${e.message}`,
      }),
    );
    try {
      return await Promise.race([read, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async writeFile(file: string, text: string, signal?: AbortSignal): Promise<number> {
    const target = await this.realPath(file);
    const dir = path.posix.dirname(target);
    await this.mkdirs(dir);
    const existing = await this.op<Attrs>((sftp, cb) => sftp.stat(target, cb)).catch(() => undefined);
    if (existing?.isDirectory()) throw new Error(`${file} is a directory`);
    const data = Buffer.from(text, "utf8");
    // Written beside the target, then renamed over it: readers see the old file or the new one.
    const tmp = path.posix.join(dir, `.${path.posix.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
    const mode = existing ? existing.mode & 0o7777 : 0o644;
    try {
      await this.op<void>((sftp, cb) => sftp.writeFile(tmp, data, { mode }, (err) => cb(err, undefined)));
      if (signal?.aborted) throw new Error(`the turn was aborted; ${file} was left unchanged`);
      await this.op<void>((sftp, cb) => sftp.ext_openssh_rename(tmp, target, (err) => cb(err, undefined)));
    } catch (e) {
      await this.op<void>((sftp, cb) => sftp.unlink(tmp, (err) => cb(err, undefined))).catch(() => undefined);
      throw e;
    }
    return data.length;
  }

  private async mkdirs(dir: string): Promise<void> {
    const st = await this.op<Attrs>((sftp, cb) => sftp.stat(dir, cb)).catch(() => undefined);
    if (st) return;
    const parent = path.posix.dirname(dir);
    if (parent !== dir) await this.mkdirs(parent);
    await this.op<void>((sftp, cb) => sftp.mkdir(dir, (err) => cb(err, undefined))).catch(async (e) => {
      if (!(await this.op<Attrs>((sftp, cb) => sftp.stat(dir, cb)).catch(() => undefined))) throw e;
    });
  }

  async stat(file: string): Promise<FileStat | undefined> {
    // Only "no such file" is "nothing there"; a broken connection throws (not a missing folder).
    const a = await this.op<Attrs>((sftp, cb) => sftp.stat(file, cb)).catch((e: unknown) => {
      if (isMissing(e) || typeof (e as { code?: unknown }).code === "number") return undefined;
      throw e;
    });
    return a ? { type: typeOf(a), size: a.size, mtimeMs: a.mtime * 1000 } : undefined;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const entries = await this.op<{ filename: string; attrs: Attrs & { isSymbolicLink(): boolean } }[]>(
      (sftp, cb) => sftp.readdir(dir, cb),
    );
    return entries.map((e) => ({ name: e.filename, type: typeOf(e.attrs) }));
  }

  walk(root: string, o: WalkOptions = {}): AsyncGenerator<string> {
    return walkFiles(root, o, {
      list: (d) => this.list(d),
      readText: (f) =>
        this.readFile(f, { maxBytes: 1024 * 1024 }).then((r) => (r.ok ? r.data.toString("utf8") : undefined)),
    });
  }

  async realPath(file: string): Promise<string> {
    const rest: string[] = [];
    let head = path.posix.normalize(file);
    // The deepest part that exists is resolved; what does not exist yet is appended as written.
    for (let guard = 0; guard < 64; guard++) {
      const real = await this.op<string>((sftp, cb) => sftp.realpath(head, cb)).catch(() => undefined);
      const exists =
        real !== undefined &&
        (await this.op<Attrs>((sftp, cb) => sftp.stat(head, cb)).catch(() => undefined));
      if (real !== undefined && exists) return rest.length ? path.posix.join(real, ...rest.reverse()) : real;
      if (head === "/") break;
      rest.push(path.posix.basename(head));
      head = path.posix.dirname(head);
    }
    return file;
  }

  async close(): Promise<void> {
    const cleanups = [...this.cleanups];
    this.cleanups.clear();
    await Promise.all([
      this.processes.closeAll({ dirUsed: this.shell.usedPidDir }).catch(() => undefined),
      ...cleanups.map((c) => c().catch(() => undefined)),
    ]);
    this.cwds.clearAll();
    await this.connection.close();
  }
}

export function sshWorkspace(settings: SshSettings): SshWorkspace {
  return new SshWorkspace(settings);
}
