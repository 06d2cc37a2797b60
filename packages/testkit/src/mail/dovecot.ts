// A real Dovecot IMAP server for the e-mail platform's tests: a config in a temp folder (IMAP on a
// free loopback port, no TLS, passwd-file users, maildir), `dovecot -F` in the foreground, stopped
// by pid. Its mail stays in the folder across restart(), so a test can drop every connection and
// see what was delivered meanwhile. As root the login and mail processes run as Debian's dovenull
// and dovecot users (Dovecot refuses root for them). Without dovecot the tests skip on a
// developer's machine but fail under CI=true (.ci/run installs dovecot-imapd).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "../services/net.js";

const DOVECOT = "/usr/sbin/dovecot";

export function dovecotInstalled(): boolean {
  return spawnSync(DOVECOT, ["--version"], { stdio: "ignore" }).error === undefined;
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutDovecot(): boolean {
  if (dovecotInstalled()) return false;
  if (process.env.CI === "true")
    throw new Error(
      "dovecot is not installed: the e-mail tests need it (apt-get install -y dovecot-imapd; .ci/run does)",
    );
  return true;
}

/** uid and gid of a system user, from /etc/passwd. */
function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`dovecot: no system user ${name}`);
  return { uid: Number(uid), gid: Number(gid) };
}

export interface Dovecot {
  host: string;
  port: number;
  /** Stops the server: every connection drops. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same mail. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startDovecot(users: Record<string, string>): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), "iris-dovecot-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const me = userInfo();
  const mail = root ? systemUser("dovecot") : { uid: me.uid, gid: me.gid };
  const group = root ? "dovecot" : (spawnSync("id", ["-gn"], { encoding: "utf8" }).stdout.trim() ?? "");
  for (const d of ["run", "state", "mail"]) mkdirSync(join(dir, d));
  if (root) chownSync(join(dir, "mail"), mail.uid, mail.gid);
  writeFileSync(
    join(dir, "users"),
    Object.entries(users)
      .map(([u, p]) => `${u}:{PLAIN}${p}\n`)
      .join(""),
  );
  const conf = join(dir, "dovecot.conf");
  writeFileSync(
    conf,
    [
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      `log_path = ${dir}/dovecot.log`,
      "ssl = no",
      "disable_plaintext_auth = no",
      "auth_mechanisms = plain login",
      "protocols = imap",
      "listen = 127.0.0.1",
      `default_internal_user = ${root ? "dovecot" : me.username}`,
      `default_internal_group = ${group}`,
      `default_login_user = ${root ? "dovenull" : me.username}`,
      "service imap-login {",
      "  inet_listener imap {",
      "    address = 127.0.0.1",
      `    port = ${port}`,
      "  }",
      "  chroot =",
      "}",
      "service anvil {",
      "  chroot =",
      "}",
      "passdb {",
      "  driver = passwd-file",
      `  args = scheme=PLAIN username_format=%u ${dir}/users`,
      "}",
      "userdb {",
      "  driver = static",
      `  args = uid=${mail.uid} gid=${mail.gid} home=${dir}/mail/%u`,
      "}",
      "mail_location = maildir:~/Maildir",
      "first_valid_uid = 0",
      "",
    ].join("\n"),
  );
  let child: ChildProcess | undefined;
  let exited = Promise.resolve();
  const log = () => {
    try {
      return readFileSync(join(dir, "dovecot.log"), "utf8").slice(-3000);
    } catch {
      return "";
    }
  };
  const start = async () => {
    const c = spawn(DOVECOT, ["-F", "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    c.stderr?.on("data", (d) => {
      stderr = (stderr + d).slice(-2000);
    });
    child = c;
    exited = new Promise<void>((resolve) => c.once("exit", () => resolve()));
    for (let i = 0; i < 200; i++) {
      if (c.exitCode !== null) throw new Error(`dovecot exited (${c.exitCode}): ${stderr}${log()}`);
      // A greeting, not a mere connect: the login process is up.
      const ok = await new Promise<boolean>((resolve) => {
        const s = connect(port, "127.0.0.1");
        s.once("data", (d) => {
          s.destroy();
          resolve(String(d).startsWith("* OK"));
        });
        s.once("error", () => resolve(false));
      });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`dovecot did not answer on ${port}: ${stderr}${log()}`);
  };
  const stop = async () => {
    if (child && child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    host: "127.0.0.1",
    port,
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
