// A real OpenSSH server for the ssh workspace tests (tools' and the CLI's): host and user keys generated in a temp
// folder, a free loopback port, `sshd -D` in the foreground, stopped by pid. Run as root it logs
// in a user of its own (iris-ssh-test, home /home/iris-ssh-test), so "remote" files are not the
// test's own home. Without sshd the tests skip on a developer's machine but fail under CI=true.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "./services/net.js";

const SSHD = "/usr/sbin/sshd";
export const SSH_TEST_USER = "iris-ssh-test";

export function sshdInstalled(): boolean {
  return spawnSync(SSHD, ["-V"], { stdio: "ignore" }).error === undefined;
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutSshd(): boolean {
  if (sshdInstalled()) return false;
  if (process.env.CI === "true")
    throw new Error(
      "sshd is not installed: the ssh workspace tests need it (apt-get install -y openssh-server; .ci/run does)",
    );
  return true;
}

function keygen(file: string): void {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", file], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
}

/** The test user (root only): created once, unlocked (sshd refuses a locked account). */
function ensureUser(): { user: string; home: string } {
  if (process.getuid?.() !== 0) return { user: userInfo().username, home: userInfo().homedir };
  const home = `/home/${SSH_TEST_USER}`;
  if (spawnSync("id", [SSH_TEST_USER], { stdio: "ignore" }).status !== 0) {
    spawnSync("useradd", ["-m", "-s", "/bin/bash", SSH_TEST_USER], { stdio: "ignore" });
  }
  spawnSync("usermod", ["-p", "*", SSH_TEST_USER], { stdio: "ignore" });
  mkdirSync(home, { recursive: true });
  spawnSync("chown", [`${SSH_TEST_USER}:`, home], { stdio: "ignore" });
  return { user: SSH_TEST_USER, home };
}

export interface Sshd {
  host: string;
  port: number;
  user: string;
  /** The remote user's home. */
  home: string;
  keyPath: string;
  knownHosts: string;
  /** A known_hosts file that lists another key for this host (a refused host key). */
  wrongKnownHosts: string;
  dir: string;
  /** Kills the server's per-connection processes by pid: every open connection drops, the server stays. */
  dropConnections(): void;
  close(): Promise<void>;
}

function waitListening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 15_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`sshd exited: ${log()}`));
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve();
      });
      s.once("error", () => {
        s.destroy();
        if (Date.now() > until) reject(new Error(`sshd did not listen on ${port}: ${log()}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

export async function startSshd(): Promise<Sshd> {
  const dir = mkdtempSync(join(tmpdir(), "iris-sshd-"));
  const { user, home } = ensureUser();
  keygen(join(dir, "host"));
  keygen(join(dir, "id"));
  keygen(join(dir, "other"));
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "id.pub")), { mode: 0o644 });
  // sshd reads authorized_keys as the user who logs in.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const hostPub = readFileSync(join(dir, "host.pub"), "utf8").trim().split(/\s+/).slice(0, 2).join(" ");
  const otherPub = readFileSync(join(dir, "other.pub"), "utf8").trim().split(/\s+/).slice(0, 2).join(" ");
  writeFileSync(join(dir, "known_hosts"), `[127.0.0.1]:${port} ${hostPub}\n`);
  writeFileSync(join(dir, "wrong_known_hosts"), `[127.0.0.1]:${port} ${otherPub}\n`);
  const cfg = join(dir, "sshd_config");
  writeFileSync(
    cfg,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "UsePAM no",
      "StrictModes no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      `AllowUsers ${user}`,
      "Subsystem sftp internal-sftp",
      "",
    ].join("\n"),
  );
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true });
  let child: ChildProcess | undefined;
  let log = "";
  const start = async () => {
    log = "";
    const c = spawn(SSHD, ["-D", "-e", "-f", cfg], { stdio: ["ignore", "ignore", "pipe"] });
    c.stderr?.on("data", (b: Buffer) => {
      log += b.toString("utf8");
    });
    child = c;
    await waitListening(port, c, () => log);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGKILL");
    });
  };
  const dropConnections = () => {
    const pid = child?.pid;
    if (pid === undefined) return;
    // Every descendant of the listener (monitor, session, shell), by pid.
    const all: string[] = [];
    let level = [String(pid)];
    while (level.length) {
      const ps = spawnSync("ps", ["-o", "pid=", "--ppid", level.join(",")], { encoding: "utf8" });
      level = ps.stdout.split(/\s+/).filter(Boolean);
      all.push(...level);
    }
    for (const p of all) {
      try {
        process.kill(Number(p), "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  await start();
  return {
    host: "127.0.0.1",
    port,
    user,
    home,
    keyPath: join(dir, "id"),
    knownHosts: join(dir, "known_hosts"),
    wrongKnownHosts: join(dir, "wrong_known_hosts"),
    dir,
    dropConnections,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
