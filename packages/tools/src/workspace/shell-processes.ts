// Background processes on a workspace that has a shell but no process handles here (ssh,
// docker): each runs in its own session (setsid) on the workspace's side, its output goes to a
// log file there and its exit status to a file beside it; poll, read, wait and kill are short
// commands over the workspace's own exec. stdin cannot be written (there is no pipe to it).
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type {
  BackgroundProcesses,
  ExecOptions,
  ExecResult,
  ProcessInfo,
  StartProcessOptions,
} from "./types.js";

export const SHELL_PROCESS_BUFFER_BYTES = 1024 * 1024;
const BIG = { maxBytes: 4 * SHELL_PROCESS_BUFFER_BYTES, maxLines: 10_000_000, maxLineLength: 10_000_000 };
const WAIT_STEP_MS = 200;
/** Each session's folder is `<this><host>.<pid>-<random>`: its owner is in its name. */
const PROCS_ROOT = "/tmp/iris-procs-";

interface Tracked extends ProcessInfo {
  cursor: number;
}

/** A shell test: the pid is alive and not a zombie (an orphan whose reaper never waits stays one). */
function aliveTest(pid: number): string {
  return `{ st=$(ps -o stat= -p ${pid} 2>/dev/null || { kill -0 ${pid} 2>/dev/null && echo R; }); case "$st" in ""|Z*) false;; *) true;; esac; }`;
}

/** This Iris process as a folder-name part: which machine, which pid (orphans are found by it). */
export function ownerTag(): string {
  return `${hostname().replace(/[^A-Za-z0-9.-]/g, "_")}.${process.pid}`;
}

/** Whether a process of this machine with this pid is gone (another machine's owners are left alone). */
function ownerGone(tag: string): boolean {
  const at = tag.lastIndexOf(".");
  if (at < 0 || tag.slice(0, at) !== hostname().replace(/[^A-Za-z0-9.-]/g, "_")) return false;
  try {
    process.kill(Number(tag.slice(at + 1)), 0);
    return false;
  } catch (e) {
    return (e as { code?: string }).code === "ESRCH";
  }
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export class ShellProcesses implements BackgroundProcesses {
  private readonly procs = new Map<string, Tracked>();
  private nextId = 1;
  /** This process's folder on the shell's machine: pid files the next start's sweep kills by. */
  readonly dir = `${PROCS_ROOT}${ownerTag()}-${randomBytes(6).toString("hex")}`;

  constructor(
    private readonly exec: (o: ExecOptions) => Promise<ExecResult>,
    private readonly backend: string,
  ) {}

  private async sh(command: string, cwd = "/"): Promise<string> {
    const r = await this.exec({ command, cwd, timeoutMs: 30_000, caps: BIG });
    return r.output;
  }

  async start(o: StartProcessOptions): Promise<ProcessInfo> {
    const id = `proc_${this.nextId++}`;
    const log = `${this.dir}/${id}.log`;
    const exit = `${this.dir}/${id}.exit`;
    const env = Object.entries(o.env ?? {})
      .map(([k, v]) => `export ${k}=${shellQuote(v)}; `)
      .join("");
    const inner = `${env}bash -c ${shellQuote(o.command)}; echo $? > ${exit}`;
    const out = await this.sh(
      // A simple command in the background, so $! is setsid's own pid: the new group's id.
      `mkdir -p ${this.dir} || exit 1\nsetsid bash -c ${shellQuote(inner)} > ${log} 2>&1 < /dev/null &\necho $! > ${this.dir}/${id}.pid; echo "pid:$!"`,
      o.cwd,
    );
    const pid = Number(/pid:(\d+)/.exec(out)?.[1]);
    if (!Number.isFinite(pid))
      throw new Error(`could not start the process on the ${this.backend} workspace: ${out}`);
    const p: Tracked = {
      id,
      pid,
      command: o.command,
      cwd: o.cwd,
      taskId: o.taskId,
      startedAt: Date.now(),
      exitCode: null,
      signal: null,
      running: true,
      killed: false,
      cursor: 0,
    };
    this.procs.set(id, p);
    return { ...p };
  }

  private async refresh(p: Tracked): Promise<void> {
    if (!p.running) return;
    const out = (
      await this.sh(
        // Alive first: once it is gone, the exit file it writes last is there if it ever will be.
        `if ${aliveTest(p.pid)}; then echo running; ` +
          `elif [ -f ${this.dir}/${p.id}.exit ]; then echo "exit:$(cat ${this.dir}/${p.id}.exit)"; else echo gone; fi`,
      )
    ).trim();
    if (out === "running") return;
    const code = /^exit:(\d+)/.exec(out);
    p.running = false;
    p.endedAt = Date.now();
    p.exitCode = code ? Number(code[1]) : null;
    if (!code) p.signal = "SIGTERM";
  }

  async list(): Promise<ProcessInfo[]> {
    for (const p of this.procs.values()) await this.refresh(p);
    return [...this.procs.values()].map((p) => ({ ...p }));
  }

  async get(id: string): Promise<ProcessInfo | undefined> {
    const p = this.procs.get(id);
    if (!p) return undefined;
    await this.refresh(p);
    return { ...p };
  }

  private must(id: string): Tracked {
    const p = this.procs.get(id);
    if (!p) throw new Error(`no process with id ${id}`);
    return p;
  }

  private async size(p: Tracked): Promise<number> {
    return Number((await this.sh(`wc -c < ${this.dir}/${p.id}.log 2>/dev/null || echo 0`)).trim()) || 0;
  }

  async poll(id: string): Promise<{ text: string; skipped: number }> {
    const p = this.must(id);
    const size = await this.size(p);
    const from = Math.max(p.cursor, size - SHELL_PROCESS_BUFFER_BYTES);
    const skipped = from - p.cursor;
    if (size <= from) return { text: "", skipped };
    const text = await this.sh(`tail -c +${from + 1} ${this.dir}/${p.id}.log | head -c ${size - from}`);
    p.cursor = size;
    return { text, skipped };
  }

  async buffered(id: string): Promise<{ text: string; dropped: number }> {
    const p = this.must(id);
    const size = await this.size(p);
    const text = await this.sh(`tail -c ${SHELL_PROCESS_BUFFER_BYTES} ${this.dir}/${p.id}.log`);
    return { text, dropped: Math.max(0, size - SHELL_PROCESS_BUFFER_BYTES) };
  }

  async write(id: string): Promise<void> {
    this.must(id);
    throw new Error(
      `writing to a background process's stdin is not supported on the ${this.backend} workspace`,
    );
  }

  async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const p = this.must(id);
    const until = Date.now() + timeoutMs;
    for (;;) {
      await this.refresh(p);
      if (!p.running) return true;
      if (signal?.aborted || Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, Math.min(WAIT_STEP_MS, Math.max(0, until - Date.now()))));
    }
  }

  async kill(id: string): Promise<void> {
    const p = this.must(id);
    await this.refresh(p);
    if (!p.running) return;
    p.killed = true;
    await this.sh(
      `kill -TERM -- -${p.pid} 2>/dev/null; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do ` +
        `${aliveTest(p.pid)} || break; sleep 0.1; done; kill -KILL -- -${p.pid} 2>/dev/null; true`,
    );
    await this.refresh(p);
  }

  /** The folders of sessions whose Iris process is gone (killed, crashed): what `iris doctor` lists. */
  async orphans(): Promise<string[]> {
    const out = await this.sh(`for d in ${PROCS_ROOT}*; do [ -d "$d" ] && echo "$d"; done; true`);
    return out
      .split("\n")
      .map((l) => l.trim())
      .filter((d) => d.startsWith(PROCS_ROOT) && d !== this.dir)
      .filter((d) => ownerGone(d.slice(PROCS_ROOT.length).replace(/-[0-9a-f]+$/, "")));
  }

  /**
   * Kills the processes of sessions whose Iris process is gone and removes their folders: the
   * start of a session on the same workspace leaves none behind. The folders swept.
   */
  async sweepOrphans(): Promise<string[]> {
    const gone = await this.orphans();
    if (!gone.length) return [];
    const script = gone
      .map(
        (d) =>
          `for f in ${d}/*.pid; do [ -f "$f" ] && kill -KILL -- -"$(cat "$f")" 2>/dev/null; done; rm -rf ${d};`,
      )
      .join(" ");
    await this.sh(`${script} true`);
    return gone;
  }

  /** `dirUsed`: foreground commands left pid files in the folder too (ssh-shell.ts). */
  async closeAll(o: { dirUsed?: boolean } = {}): Promise<void> {
    const running = [...this.procs.values()].filter((p) => p.running);
    // A shell that cannot be reached leaves the folder to the next start's sweep.
    if (this.procs.size === 0 && !o.dirUsed) return;
    const kills = running.map((p) => `kill -KILL -- -${p.pid} 2>/dev/null;`).join(" ");
    await this.sh(`${kills} rm -rf ${this.dir}`).catch(() => undefined);
    this.procs.clear();
  }
}
