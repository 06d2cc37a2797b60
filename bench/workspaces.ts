// Command round trip per workspace (issue 26): one `true` through each backend's exec, next to
// a bare `bash -c true` spawned here, and one execute_code sandbox start (bubblewrap).
//   bash -c true     spawn of /bin/bash on this machine, to its exit
//   local            LocalWorkspace.exec (process group, cwd marker, output caps)
//   docker exec      DockerWorkspace.exec against podman system service (testkit/podman.ts)
//   rootless exec    the same against an unprivileged user's podman (rootless; needs uidmap)
//   ssh              SshWorkspace.exec over one persistent shell to a loopback sshd (testkit/sshd.ts)
//   bwrap sandbox    bwrap --unshare-all … /usr/bin/true, execute_code's sandbox
// Each a median (min–max) over --rounds runs after one warm-up; a backend whose system package is
// missing (podman, sshd, bwrap) is skipped with a note.
// Run: npx tsx bench/workspaces.ts [--rounds 30]
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  type Podman,
  podmanInstalled,
  sshdInstalled,
  startPodman,
  startSshd,
} from "../packages/testkit/src/index.js";
import { bwrapArgs } from "../packages/tools/src/code/bwrap.js";
import { dockerWorkspace } from "../packages/tools/src/workspace/docker.js";
import { localWorkspace } from "../packages/tools/src/workspace/local.js";
import { sshWorkspace } from "../packages/tools/src/workspace/ssh.js";
import type { Workspace } from "../packages/tools/src/workspace/types.js";

const i = process.argv.indexOf("--rounds");
const rounds = i >= 0 ? Number(process.argv[i + 1]) : 30;
if (!Number.isInteger(rounds) || rounds <= 0) throw new Error("--rounds needs a positive whole number");

const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${ms(s[Math.floor(s.length / 2)] ?? Number.NaN)} (min ${ms(s[0] ?? 0)}, max ${ms(s.at(-1) ?? 0)}, n=${s.length})`;
};
const line = (name: string, xs: number[]) => process.stdout.write(`${name.padEnd(16)} ${summary(xs)}\n`);

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  await fn();
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return xs;
}

const spawnTrue = (cmd: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: "ignore" });
    c.once("error", reject);
    c.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))));
  });

async function execTrue(ws: Workspace, cwd: string) {
  const r = await ws.exec({ command: "true", cwd, timeoutMs: 30_000 });
  if (r.exitCode !== 0) throw new Error(`${ws.kind}: true exited ${r.exitCode}: ${r.output}`);
}

/** Start and exec round trip on one engine, in a work folder of the engine user's (rootless). */
async function benchDocker(label: string, engine: Podman) {
  const work = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-bench-docker-")));
  chownSync(work, engine.uid, engine.gid);
  const ws = dockerWorkspace({
    socket: engine.socket,
    image: engine.image,
    profile: "bench",
    scope: "session",
    sessionId: "bench",
    hostRoot: work,
  });
  const t0 = performance.now();
  await ws.connect();
  process.stdout.write(
    `${`${label} start`.padEnd(16)} ${ms(performance.now() - t0)} (engine answers, container created and started)\n`,
  );
  line(`${label} exec`, await timed(() => execTrue(ws, work)));
  await ws.close();
  await engine.close();
  rmSync(work, { recursive: true, force: true });
}

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-bench-ws-")));
process.stdout.write(`workspaces bench: load average ${loadavg()[0]?.toFixed(2)}, ${rounds} rounds\n`);
try {
  line("bash -c true", await timed(() => spawnTrue("/bin/bash", ["-c", "true"])));
  const local = localWorkspace({ root });
  line("local", await timed(() => execTrue(local, root)));
  await local.close();

  if (podmanInstalled()) {
    await benchDocker("docker", await startPodman());
    if (existsSync("/usr/bin/newuidmap"))
      await benchDocker("rootless", await startPodman({ rootless: true }));
    else process.stdout.write("rootless exec    skipped (uidmap missing)\n");
  } else process.stdout.write("docker exec      skipped (podman, runc or busybox-static missing)\n");

  if (sshdInstalled()) {
    const sshd = await startSshd();
    const ws = sshWorkspace({
      host: sshd.host,
      port: sshd.port,
      user: sshd.user,
      keyPath: sshd.keyPath,
      knownHosts: sshd.knownHosts,
      remoteDir: sshd.home,
    });
    await ws.connect();
    line("ssh", await timed(() => execTrue(ws, sshd.home)));
    await ws.close();
    await sshd.close();
  } else process.stdout.write("ssh              skipped (openssh-server missing)\n");

  if (spawnSync("/usr/bin/bwrap", ["--version"]).status === 0) {
    const channel = mkdtempSync(path.join(tmpdir(), "iris-bench-bwrap-"));
    const args = bwrapArgs({ workdir: root, cwd: root, channelDir: channel, env: { PATH: "/usr/bin" } });
    line("bwrap sandbox", await timed(() => spawnTrue("/usr/bin/bwrap", [...args, "/usr/bin/true"])));
    rmSync(channel, { recursive: true, force: true });
  } else process.stdout.write("bwrap sandbox    skipped (bubblewrap missing)\n");
} finally {
  rmSync(root, { recursive: true, force: true });
}
