// Commands over the session's one persistent bash (SSH), one at a time. Each is started as its
// own session (`setsid -w`) so a timeout kills its whole group, and framed by in-band markers
// on the channel: the command's pid first, its $PWD from the EXIT trap (cwd-marker.ts), then
// the end marker with its exit status, printed by the persistent shell once it is gone.
import { DEFAULT_OUTPUT_CAPS, HeadTailCollector } from "../terminal/output-caps.js";
import { CwdMarkerReader, markCommand, printMarker } from "./cwd-marker.js";
import { shellQuote } from "./shell-processes.js";
import type { SshConnection } from "./ssh-connection.js";
import type { ExecOptions, ExecResult } from "./types.js";

const PID = "__IRIS_PID_";
const END = "__IRIS_END_";
const KILL_GRACE_S = 2;

export class SshShell {
  /** Whether a command left its pid file in pidDir (the folder is then removed at close). */
  usedPidDir = false;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * `pidDir`: where each running command leaves its group's pid until it ends, so that if this
   * Iris is killed (the command, in its own session, outlives the dropped connection) the next
   * start's sweep kills it (ShellProcesses.sweepOrphans).
   */
  constructor(
    private readonly conn: SshConnection,
    private readonly pidDir?: string,
  ) {}

  exec(o: ExecOptions): Promise<ExecResult> {
    const run = this.queue.then(() => this.runOne(o));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runOne(o: ExecOptions): Promise<ExecResult> {
    const started = Date.now();
    const link = await this.conn.get();
    const caps = o.caps ?? DEFAULT_OUTPUT_CAPS;
    const env = { PAGER: "cat", GIT_PAGER: "cat", ...(this.conn.settings.env ?? {}), ...(o.env ?? {}) };
    const exports = Object.entries(env)
      .map(([k, v]) => `export ${k}=${shellQuote(v)}`)
      .join("\n");
    const body = `cd -- ${shellQuote(o.cwd)} || exit 126\n${exports}\n${o.command}`;
    const { script, nonce } = markCommand(body);
    const pidFile = this.pidDir ? shellQuote(`${this.pidDir}/fg-${nonce}.pid`) : undefined;
    if (pidFile) this.usedPidDir = true;
    const record = pidFile
      ? `mkdir -p -- ${shellQuote(this.pidDir as string)} && echo "$$" > ${pidFile}\n`
      : "";
    const inner = `${record}${printMarker(PID, nonce, '"$$"')}\n${script}`;
    const forget = pidFile ? `s=$?; rm -f -- ${pidFile}; (exit $s); ` : "";
    const line = `setsid -w bash --noprofile --norc -c ${shellQuote(inner)} </dev/null 2>&1; ${forget}${printMarker(END, nonce, '"$?"')}\n`;

    const collector = new HeadTailCollector(caps.maxBytes);
    let pid: number | undefined;
    let timedOut = false;
    let aborted = false;
    const take = (b: Buffer) => {
      collector.push(b);
      o.onData?.(b.toString("utf8"));
    };
    // Chained in the order the markers come: the pid first (then it passes all through), the end
    // marker next (what it holds back can only be the end marker's start), the cwd last.
    const cwdReader = new CwdMarkerReader(nonce, take);
    const { shell } = link;
    const code = await new Promise<number>((resolve, reject) => {
      const endReader = new CwdMarkerReader(
        nonce,
        (b) => cwdReader.push(b),
        END,
        (v) => {
          cleanup();
          resolve(Number(v));
        },
      );
      const pidReader = new CwdMarkerReader(
        nonce,
        (b) => endReader.push(b),
        PID,
        (v) => {
          pid = Number(v);
          if (timedOut || aborted) this.killGroup(pid);
        },
      );
      const onData = (b: Buffer) => pidReader.push(b);
      const onClose = () => {
        cleanup();
        this.conn.drop(link);
        reject(this.conn.unavailable("the connection was lost while the command ran"));
      };
      const kill = () => {
        if (pid !== undefined) this.killGroup(pid);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, o.timeoutMs);
      const onAbort = () => {
        aborted = true;
        kill();
      };
      function cleanup() {
        clearTimeout(timer);
        shell.off("data", onData);
        shell.off("close", onClose);
        o.signal?.removeEventListener("abort", onAbort);
      }
      shell.on("data", onData);
      shell.once("close", onClose);
      if (o.signal?.aborted) onAbort();
      else o.signal?.addEventListener("abort", onAbort, { once: true });
      shell.write(line);
    });
    cwdReader.end();
    const finalCwd = timedOut || aborted ? undefined : cwdReader.cwd;
    return {
      output: collector.text(caps),
      exitCode: code,
      signal: null,
      timedOut,
      aborted,
      ...(finalCwd !== undefined ? { finalCwd } : {}),
      durationMs: Date.now() - started,
    };
  }

  /** SIGTERM to the command's group, SIGKILL after the grace period (on a channel of its own). */
  private killGroup(pid: number): void {
    void this.conn
      .run(
        `kill -TERM -- -${pid} 2>/dev/null; sleep ${KILL_GRACE_S}; kill -KILL -- -${pid} 2>/dev/null; true`,
      )
      .catch(() => undefined);
  }
}
