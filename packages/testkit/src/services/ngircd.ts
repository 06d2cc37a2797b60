// A real ngircd for the tests: a config in a temp folder, a free loopback port, started in the
// foreground and stopped by pid. Without ngircd installed the IRC tests skip on a developer's
// machine but fail under CI=true (.ci/run installs it), so nothing is skipped silently in CI.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, skipUnlessInstalled, waitListening } from "./net.js";

export function ngircdInstalled(): boolean {
  return spawnSync("ngircd", ["--version"], { stdio: "ignore" }).error === undefined;
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutNgircd(): boolean {
  return skipUnlessInstalled(
    ngircdInstalled(),
    "ngircd is not installed: the IRC tests need it (apt-get install -y ngircd; .ci/run does)",
  );
}

export interface Ngircd {
  port: number;
  stop(): Promise<void>;
  /** A fresh server on the same port (every connection to the old one is dropped). */
  restart(): Promise<Ngircd>;
}

export interface NgircdOptions {
  /**
   * Lifts the flood limits (soak runs): no penalty time per command (MaxPenaltyTime = 0), every
   * client gets user mode F (relaxed flood protection), and no cap on connections per IP.
   */
  unthrottled?: boolean;
}

export async function startNgircd(
  channels: string[] = ["#test"],
  fixedPort?: number,
  options: NgircdOptions = {},
): Promise<Ngircd> {
  const dir = mkdtempSync(join(tmpdir(), "iris-ngircd-"));
  const port = fixedPort ?? (await freePort());
  const root = process.getuid?.() === 0;
  const conf = [
    "[Global]",
    "Name = irc.iris.test",
    "Info = Iris test server",
    "AdminInfo1 = test",
    "AdminInfo2 = test",
    "AdminEMail = test@example.invalid",
    "Listen = 127.0.0.1",
    `Ports = ${port}`,
    // ngircd drops root for a fixed uid; the pid file then cannot be written, which is harmless.
    ...(root ? ["ServerUID = 65534", "ServerGID = 65534"] : []),
    `PidFile = ${join(dir, "ngircd.pid")}`,
    "MotdPhrase = Iris tests",
    "[Limits]",
    "MaxNickLength = 30",
    ...(options.unthrottled ? ["MaxPenaltyTime = 0", "MaxConnectionsIP = 0"] : []),
    "[Options]",
    ...(options.unthrottled ? ["DefaultUserModes = F"] : []),
    "PAM = no",
    "Ident = no",
    "DNS = no",
    ...channels.flatMap((c) => ["[Channel]", `Name = ${c}`, "Modes = +n"]),
    "",
  ].join("\n");
  const path = join(dir, "ngircd.conf");
  writeFileSync(path, conf);
  let output = "";
  const child = spawn("ngircd", ["-n", "-f", path], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d) => {
    output = (output + d).slice(-4000);
  });
  child.stderr?.on("data", (d) => {
    output = (output + d).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitListening(port, "ngircd", () =>
    child.exitCode !== null ? `code ${child.exitCode}: ${output}` : undefined,
  );
  return {
    port,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
    restart: () => startNgircd(channels, port, options),
  };
}
