// Background processes on this machine: the ProcessManager (its own process group per command,
// a bounded ring buffer, every live group killed when Node exits) behind the workspace's port.
import { commandEnv } from "../terminal/env.js";
import { type ManagedProcess, ProcessManager } from "../terminal/process-manager.js";
import type { BackgroundProcesses, ProcessInfo, StartProcessOptions } from "./types.js";

export class LocalProcesses implements BackgroundProcesses {
  readonly manager = new ProcessManager();

  constructor(private readonly baseEnv: () => NodeJS.ProcessEnv = () => commandEnv()) {}

  async start(o: StartProcessOptions): Promise<ProcessInfo> {
    const p = this.manager.start({
      command: o.command,
      cwd: o.cwd,
      env: { ...this.baseEnv(), ...(o.env ?? {}) },
      taskId: o.taskId,
    });
    return infoOf(p);
  }

  async list(): Promise<ProcessInfo[]> {
    return this.manager.list().map(infoOf);
  }

  async get(id: string): Promise<ProcessInfo | undefined> {
    const p = this.manager.get(id);
    return p ? infoOf(p) : undefined;
  }

  async poll(id: string): Promise<{ text: string; skipped: number }> {
    return this.manager.takeNewOutput(this.must(id));
  }

  async buffered(id: string): Promise<{ text: string; dropped: number }> {
    return this.manager.buffered(this.must(id));
  }

  write(id: string, data: string): Promise<void> {
    return this.manager.write(this.must(id), data);
  }

  wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.manager.wait(this.must(id), timeoutMs, signal);
  }

  kill(id: string): Promise<void> {
    return this.manager.kill(this.must(id));
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.manager.list().map((p) => this.manager.kill(p)));
    this.manager.clear();
  }

  private must(id: string): ManagedProcess {
    const p = this.manager.get(id);
    if (!p) throw new Error(`no process with id ${id}`);
    return p;
  }
}

function infoOf(p: ManagedProcess): ProcessInfo {
  return {
    id: p.id,
    pid: p.pid,
    command: p.command,
    cwd: p.cwd,
    taskId: p.taskId,
    startedAt: p.startedAt,
    ...(p.endedAt !== undefined ? { endedAt: p.endedAt } : {}),
    exitCode: p.exitCode,
    signal: p.signal,
    running: p.running,
    killed: p.killed,
  };
}
