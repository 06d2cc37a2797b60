// Commands over the session's one persistent bash (SSH), one at a time. Each is started as its
// own session (`setsid -w`) so a timeout kills its whole group, and framed by in-band markers
// on the channel: the command's pid first, its $PWD from the EXIT trap (cwd-marker.ts), then
// the end marker with its exit status, printed by the persistent shell once it is gone.
// A connection that drops before the command said it started is opened again and the command
// sent once more; a claim file per command (made with noclobber, so only one copy can make it)
// keeps it from running twice should the first copy reach the remote shell late after all; one
// given up (its time ran out) has its claim taken, so a late copy never runs.
import { DEFAULT_OUTPUT_CAPS, HeadTailCollector } from "../terminal/output-caps.js";
import { CwdMarkerReader, markCommand, printMarker } from "./cwd-marker.js";
import { shellQuote } from "./shell-processes.js";
import type { SshConnection } from "./ssh-connection.js";
import type { ExecOptions, ExecResult } from "./types.js";

const PID = "__IRIS_PID_";
const END = "__IRIS_END_";
const KILL_GRACE_S = 2;
/** The pid marker's value when another copy of the command holds its claim. */
const CLAIMED = "claimed";

/** The connection dropped before the command's pid marker came: it may never have started. */
class LostBeforeStart extends Error {}

export class SshShell {
  /** Whether a command left its pid file in pidDir (the folder is then removed at close). */
  usedPidDir = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The claim of the last command that ended on its first try: the next line removes it. */
  private settledClaim: string | undefined;

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
    const env = { PAGER: "cat", GIT_PAGER: "cat", ...(this.conn.settings.env ?? {}), ...(o.env ?? {}) };
    const exports = Object.entries(env)
      .map(([k, v]) => `export ${k}=${shellQuote(v)}`)
      .join("\n");
    const marked = markCommand(`cd -- ${shellQuote(o.cwd)} || exit 126\n${exports}\n${o.command}`);
    const begun = Date.now();
    try {
      return await this.attempt(o, marked, false);
    } catch (e) {
      if (!(e instanceof LostBeforeStart)) throw e;
    }
    // Sent again on a new connection, with the same nonce (the claim makes sure one copy runs),
    // within what is left of its time.
    const left = o.timeoutMs - (Date.now() - begun);
    if (!this.pidDir || o.signal?.aborted || left <= 0) throw await this.forfeit(marked.nonce);
    return this.attempt({ ...o, timeoutMs: left }, marked, true).catch((e: unknown) => {
      if (e instanceof LostBeforeStart)
        throw this.conn.unavailable("the connection was lost twice before the command started");
      throw e;
    });
  }

  /**
   * Gives up a command the dropped connection may not have delivered: its claim is taken on a new
   * connection, so a first copy that arrives late does not run. What the call then says.
   */
  private async forfeit(nonce: string): Promise<Error> {
    if (!this.pidDir)
      return this.conn.unavailable("the connection was lost before the command was seen to start");
    const dir = shellQuote(this.pidDir);
    const claim = shellQuote(`${this.pidDir}/run-${nonce}`);
    const took = await this.conn
      .run(`mkdir -p -- ${dir} && set -C && : 2>/dev/null > ${claim} && echo took || echo taken`)
      .catch(() => "");
    if (took.trim() === "took")
      return this.conn.unavailable("the connection was lost before the command started (it will not run)");
    if (took.trim() === "taken")
      return this.conn.unavailable("the connection was lost while the command ran (its output is lost)");
    return this.conn.unavailable("the connection was lost before the command was seen to start");
  }

  /**
   * The line the persistent shell runs: the claim, then the command in a session of its own that
   * leaves its group's pid in pidDir while it runs, then the end marker with its exit status.
   * A claim stays until a later line removes it, and only once its command's end came back on the
   * connection it was sent on (then no other copy of it exists); a retry never runs unclaimed.
   */
  private line(script: string, nonce: string, retry: boolean): string {
    const inner = (record: string) => `${record}${printMarker(PID, nonce, '"$$"')}\n${script}`;
    const setsid = (record: string) =>
      `setsid -w bash --noprofile --norc -c ${shellQuote(inner(record))} </dev/null 2>&1`;
    const end = printMarker(END, nonce, '"$?"');
    if (!this.pidDir) return `${setsid("")}; ${end}\n`;
    const dir = shellQuote(this.pidDir);
    const pidFile = shellQuote(`${this.pidDir}/fg-${nonce}.pid`);
    const claim = shellQuote(`${this.pidDir}/run-${nonce}`);
    // A folder that cannot be made runs a first copy unclaimed (as without pid files), never a retry.
    const claimIt = `c=1; mkdir -p -- ${dir} 2>/dev/null && { set -C; : 2>/dev/null > ${claim} || c=; set +C; } || ${retry ? "c=" : "true"}`;
    const settled = this.settledClaim ? ` ${shellQuote(this.settledClaim)}` : "";
    this.settledClaim = undefined;
    const run = `${setsid(`[ -d ${dir} ] && echo "$$" > ${pidFile}\n`)}; s=$?; rm -f -- ${pidFile}${settled}; (exit $s)`;
    const refuse = `${printMarker(PID, nonce, CLAIMED)}; (exit 125)`;
    return `${claimIt}; if [ -n "$c" ]; then ${run}; else ${refuse}; fi; ${end}\n`;
  }

  private async attempt(
    o: ExecOptions,
    { script, nonce }: { script: string; nonce: string },
    retry: boolean,
  ): Promise<ExecResult> {
    const started = Date.now();
    const link = await this.conn.get();
    const caps = o.caps ?? DEFAULT_OUTPUT_CAPS;
    if (this.pidDir) this.usedPidDir = true;
    const line = this.line(script, nonce, retry);

    const collector = new HeadTailCollector(caps.maxBytes);
    let pid: number | undefined;
    let claimedElsewhere = false;
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
      let pidSeen = false;
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
          pidSeen = true;
          if (v === CLAIMED) {
            claimedElsewhere = true;
            return;
          }
          pid = Number(v);
          if (timedOut || aborted) this.killGroup(pid);
        },
      );
      const onData = (b: Buffer) => pidReader.push(b);
      const onClose = () => {
        cleanup();
        this.conn.drop(link);
        reject(
          pidSeen
            ? this.conn.unavailable("the connection was lost while the command ran")
            : new LostBeforeStart(),
        );
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
      try {
        shell.write(line);
      } catch {
        onClose(); // the channel is already gone
      }
    });
    cwdReader.end();
    if (!retry && !claimedElsewhere && this.pidDir) this.settledClaim = `${this.pidDir}/run-${nonce}`;
    if (claimedElsewhere)
      throw this.conn.unavailable(
        "the connection was lost while the command ran (its output is lost; it was not run again)",
      );
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
