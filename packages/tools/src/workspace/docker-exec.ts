// Commands in the docker workspace's container: each an Engine API exec of its own, started as a
// new session (`setsid -w`) so a timeout kills its whole group, stdout and stderr demultiplexed in
// arrival order, the pid and the final $PWD read from in-band markers (cwd-marker.ts), the exit
// code from the exec's inspect. A container that vanished is created again and the command sent
// once more (it had not started).
import { PassThrough } from "node:stream";
import { DEFAULT_OUTPUT_CAPS, HeadTailCollector } from "../terminal/output-caps.js";
import { CwdMarkerReader, markCommand, printMarker } from "./cwd-marker.js";
import type { DockerContainer } from "./docker-container.js";
import { shellQuote } from "./shell-processes.js";
import type { ExecOptions, ExecResult } from "./types.js";

const PID = "__IRIS_PID_";
const KILL_GRACE_S = 2;

export interface RawResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
}

/** Runs argv in the container; stdout and stderr to the callbacks, the exit code at the end. */
async function execIn(
  box: DockerContainer,
  cmd: string[],
  env: Readonly<Record<string, string>>,
  onOut: (b: Buffer) => void,
  onErr: (b: Buffer) => void,
): Promise<number | null> {
  for (let attempt = 0; ; attempt++) {
    const id = await box.get();
    const docker = await box.engine();
    let exec: Awaited<ReturnType<ReturnType<typeof docker.getContainer>["exec"]>>;
    let stream: NodeJS.ReadWriteStream;
    try {
      exec = await docker.getContainer(id).exec({
        Cmd: cmd,
        AttachStdout: true,
        AttachStderr: true,
        Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
      });
      stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadWriteStream;
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      // 404: removed by hand; 409: stopped. Made again once, then it is the engine's fault.
      if ((status === 404 || status === 409) && attempt === 0) {
        box.forget();
        continue;
      }
      throw box.engineError(e, "exec failed");
    }
    const out = new PassThrough();
    const err = new PassThrough();
    out.on("data", onOut);
    err.on("data", onErr);
    docker.modem.demuxStream(stream, out, err);
    await new Promise<void>((resolve, reject) => {
      stream.once("end", () => resolve());
      stream.once("close", () => resolve());
      stream.once("error", (e: Error) => reject(box.engineError(e, "the exec stream broke")));
    });
    try {
      return (await exec.inspect()).ExitCode ?? null;
    } catch (e) {
      throw box.engineError(e, "exec inspect failed");
    }
  }
}

/** argv in the container, whole output kept (file access, short helper commands). */
export async function runRaw(box: DockerContainer, cmd: string[]): Promise<RawResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const exitCode = await execIn(
    box,
    cmd,
    {},
    (b) => out.push(b),
    (b) => err.push(b),
  );
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode };
}

export async function dockerExec(box: DockerContainer, o: ExecOptions): Promise<ExecResult> {
  const started = Date.now();
  const caps = o.caps ?? DEFAULT_OUTPUT_CAPS;
  const body = `cd -- ${shellQuote(o.cwd)} || exit 126\n${o.command}`;
  const { script, nonce } = markCommand(body);
  const inner = `${printMarker(PID, nonce, '"$$"')}\n${script}`;
  const collector = new HeadTailCollector(caps.maxBytes);
  let pid: number | undefined;
  let timedOut = false;
  let aborted = false;
  const take = (b: Buffer) => {
    collector.push(b);
    o.onData?.(b.toString("utf8"));
  };
  const killGroup = (p: number) =>
    void runRaw(box, [
      "bash",
      "-c",
      `kill -TERM -- -${p} 2>/dev/null; sleep ${KILL_GRACE_S}; kill -KILL -- -${p} 2>/dev/null; true`,
    ]).catch(() => undefined);
  const cwdReader = new CwdMarkerReader(nonce, take);
  const pidReader = new CwdMarkerReader(
    nonce,
    (b) => cwdReader.push(b),
    PID,
    (v) => {
      pid = Number(v);
      if (timedOut || aborted) killGroup(pid);
    },
  );
  const kill = () => {
    if (pid !== undefined) killGroup(pid);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, o.timeoutMs);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener("abort", onAbort, { once: true });
  const env = { PAGER: "cat", GIT_PAGER: "cat", ...(box.settings.env ?? {}), ...(o.env ?? {}) };
  let code: number | null;
  try {
    code = await execIn(
      box,
      ["setsid", "-w", "bash", "--noprofile", "--norc", "-c", inner],
      env,
      (b) => pidReader.push(b),
      (b) => {
        // stderr: what stdout held back goes first, so the order stays.
        pidReader.flush();
        cwdReader.flush();
        take(b);
      },
    );
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
  }
  pidReader.end();
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
