// A real container engine for the docker workspace tests: `podman system service` on a unix
// socket in a temp folder, with its own storage (vfs) and runtime (runc) there, so tests of other
// engineers on the machine never see its containers. No registry is reachable, so the image is
// imported from a rootfs built here out of this machine's own binaries (busybox-static for the
// small tools, bash, setsid and ps with the libraries they load). `rootless`: run as root, the
// engine is run by an unprivileged user of its own (iris-podman-test, its user namespace made by
// newuidmap), as the README's rootless set-up has it. Without podman the tests skip on a
// developer's machine but fail under CI=true.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

const PODMAN = "/usr/bin/podman";
const RUNC = "/usr/sbin/runc";
const BUSYBOX = "/bin/busybox";
const NEWUIDMAP = "/usr/bin/newuidmap";
const SETPRIV = "/usr/bin/setpriv";
export const PODMAN_TEST_USER = "iris-podman-test";
export const PODMAN_TEST_IMAGE = "localhost/iris-test:1";
/** The same with this machine's python3 and its standard library (execute_code's tests). */
export const PODMAN_PYTHON_IMAGE = "localhost/iris-test-py:1";
const PYTHON = "/usr/bin/python3";
/** Host binaries copied into the test image with their libraries (busybox provides the rest). */
const HOST_BINARIES = ["/bin/bash", "/usr/bin/setsid", "/usr/bin/ps", "/usr/bin/base64", "/usr/bin/stat"];

export function podmanInstalled(): boolean {
  return [PODMAN, RUNC, BUSYBOX].every((p) => existsSync(p));
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutPodman(): boolean {
  if (podmanInstalled()) return false;
  if (process.env.CI === "true")
    throw new Error(
      "podman, runc or busybox-static is not installed: the docker workspace tests need them " +
        "(apt-get install -y podman runc busybox-static; .ci/run does)",
    );
  return true;
}

/** describe.skipIf(…) argument for the rootless engine: podman's, and uidmap for its user namespace. */
export function skipWithoutRootlessPodman(): boolean {
  if (skipWithoutPodman()) return true;
  if (existsSync(NEWUIDMAP)) return false;
  if (process.env.CI === "true")
    throw new Error(
      "newuidmap is not installed: rootless podman needs it (apt-get install -y uidmap; .ci/run does)",
    );
  return true;
}

/** The unprivileged user a root test runs the rootless engine as (subuid ranges come with useradd). */
function podmanUser(): { uid: number; gid: number } {
  if (spawnSync("id", [PODMAN_TEST_USER], { stdio: "ignore" }).status !== 0)
    spawnSync("useradd", ["-m", "-s", "/bin/bash", PODMAN_TEST_USER], { stdio: "ignore" });
  const id = (flag: string) => Number(spawnSync("id", [flag, PODMAN_TEST_USER], { encoding: "utf8" }).stdout);
  const uid = id("-u");
  const gid = id("-g");
  if (!Number.isInteger(uid) || uid === 0) throw new Error(`could not make the user ${PODMAN_TEST_USER}`);
  return { uid, gid };
}

export interface Podman {
  /** The Engine API socket (dockerode's socketPath). */
  socket: string;
  image: string;
  dir: string;
  /** Who runs the engine: a container's root is this uid on this machine when rootless. */
  uid: number;
  gid: number;
  /** `podman` with this engine's storage, for what a test does by hand (rm -f a container). */
  podman(args: string[]): { status: number | null; stdout: string; stderr: string };
  /** Stops the service (the socket goes away); the storage stays until close(). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

function libsOf(bin: string): string[] {
  const r = spawnSync("ldd", [bin], { encoding: "utf8" });
  return [...r.stdout.matchAll(/(\/\S+)\s+\(0x/g)].map((m) => m[1] as string);
}

function copyInto(root: string, file: string): void {
  const to = join(root, file);
  mkdirSync(dirname(to), { recursive: true });
  if (!existsSync(to)) copyFileSync(file, to);
  chmodSync(to, 0o755);
}

/** A rootfs tar: busybox applets in /bin, host binaries with their libraries, /tmp and /root. */
function buildRootfs(dir: string, withPython: boolean): string {
  const root = join(dir, "rootfs");
  for (const d of ["bin", "usr/bin", "tmp", "root", "etc", "proc", "sys", "dev", "workspace"])
    mkdirSync(join(root, d), { recursive: true });
  chmodSync(join(root, "tmp"), 0o1777);
  copyFileSync(BUSYBOX, join(root, "bin/busybox"));
  chmodSync(join(root, "bin/busybox"), 0o755);
  const applets = spawnSync(BUSYBOX, ["--list"], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  const bins = [...HOST_BINARIES];
  if (withPython) {
    const real = realpathSync(PYTHON);
    bins.push(real);
    symlinkSync(real, join(root, "usr/bin/python3"));
    // The standard library without its tests (40 MB rather than 54).
    const lib = `usr/lib/${basename(real)}`;
    const r = spawnSync("sh", [
      "-c",
      `tar -C / --exclude=test --exclude=__pycache__ -cf - ${lib} | tar -C ${root} -xf -`,
    ]);
    if (r.status !== 0) throw new Error(`copying ${lib} into the test rootfs failed`);
  }
  for (const bin of bins) {
    copyInto(root, bin);
    for (const lib of libsOf(bin)) copyInto(root, lib);
  }
  for (const a of applets) {
    const at = join(root, "bin", a);
    const usr = join(root, "usr/bin", a);
    if (!existsSync(at) && !existsSync(usr) && a !== "busybox") symlinkSync("busybox", at);
  }
  writeFileSync(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n");
  writeFileSync(join(root, "etc/group"), "root:x:0:\n");
  const tar = join(dir, "rootfs.tar");
  const r = spawnSync("tar", ["-C", root, "-cf", tar, "."], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tar of the test rootfs failed: ${r.stderr}`);
  rmSync(root, { recursive: true, force: true });
  return tar;
}

function waitSocket(socket: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 30_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`podman system service exited: ${log()}`));
      const s = connect(socket);
      s.once("connect", () => {
        s.destroy();
        resolve();
      });
      s.once("error", () => {
        s.destroy();
        if (Date.now() > until) reject(new Error(`podman did not listen on ${socket}: ${log()}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

export async function startPodman(o: { withPython?: boolean; rootless?: boolean } = {}): Promise<Podman> {
  const dir = mkdtempSync(join(tmpdir(), "iris-podman-"));
  const asUser = o.rootless && process.getuid?.() === 0 ? podmanUser() : undefined;
  const conf = join(dir, "containers.conf");
  // This VM's limits: crun fails on RLIMIT_NOFILE and hybrid cgroups; runc with no default ulimits works.
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  const env: NodeJS.ProcessEnv = { ...process.env, CONTAINERS_CONF: conf, TMPDIR: dir };
  // The engine's user owns its folder and has a runtime folder of its own there (XDG_RUNTIME_DIR).
  const owner = asUser ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  if (asUser) {
    const runtime = join(dir, "xdg");
    mkdirSync(runtime, { mode: 0o700 });
    for (const p of [dir, runtime, conf]) chownSync(p, asUser.uid, asUser.gid);
    Object.assign(env, { HOME: dir, XDG_RUNTIME_DIR: runtime, USER: PODMAN_TEST_USER });
  }
  // setpriv execs podman itself (no process in between), so the service is stopped by its own pid.
  const command = (args: string[]): [string, string[]] =>
    asUser
      ? [SETPRIV, [`--reuid=${asUser.uid}`, `--regid=${asUser.gid}`, "--init-groups", PODMAN, ...args]]
      : [PODMAN, args];
  const base = [
    "--root",
    join(dir, "storage"),
    "--runroot",
    join(dir, "run"),
    "--storage-driver",
    "vfs",
    "--runtime",
    RUNC,
    "--cgroup-manager",
    "cgroupfs",
    "--events-backend",
    "file",
    "--tmpdir",
    join(dir, "libpod-tmp"),
  ];
  const podman = (args: string[]) => {
    const [bin, argv] = command([...base, ...args]);
    const r = spawnSync(bin, argv, { encoding: "utf8", env });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const image = o.withPython ? PODMAN_PYTHON_IMAGE : PODMAN_TEST_IMAGE;
  const imported = podman(["import", buildRootfs(dir, o.withPython === true), image]);
  if (imported.status !== 0) throw new Error(`podman import failed: ${imported.stderr}`);
  const socket = join(dir, "podman.sock");
  let log = "";
  const [bin, argv] = command([...base, "system", "service", "--time", "0", `unix://${socket}`]);
  let child: ChildProcess | undefined = spawn(bin, argv, { stdio: ["ignore", "ignore", "pipe"], env });
  child.stderr?.on("data", (b: Buffer) => {
    log = (log + b.toString("utf8")).slice(-4000);
  });
  await waitSocket(socket, child, () => log);
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGTERM");
    });
    rmSync(socket, { force: true });
  };
  return {
    socket,
    image,
    dir,
    uid: owner.uid,
    gid: owner.gid,
    podman,
    stop,
    close: async () => {
      await stop();
      // Containers this engine still holds go with their storage.
      podman(["rm", "-a", "-f", "-t", "0"]);
      podman(["system", "reset", "-f"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
