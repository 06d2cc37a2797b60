// A throw-away PostgreSQL server for the store's tests: `initdb` in a temp folder (trust login,
// no fsync), `pg_ctl start` on a free loopback port with its socket in that folder, stopped and
// removed by close(). Postgres refuses to run as root: run as root (CI), the folders are given to
// the `postgres` user and the server runs as it. Without Postgres the tests skip on a developer's
// machine but fail under CI=true (`.ci/run` installs postgresql-15).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN_DIRS = ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin"];

function binary(name: string): string | undefined {
  for (const dir of BIN_DIRS) if (existsSync(join(dir, name))) return join(dir, name);
  const which = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() || undefined : undefined;
}

export function postgresInstalled(): boolean {
  return binary("initdb") !== undefined && binary("pg_ctl") !== undefined;
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutPostgres(): boolean {
  if (postgresInstalled()) return false;
  if (process.env.CI === "true")
    throw new Error(
      "PostgreSQL is not installed: the Postgres store's tests need it (apt-get install -y postgresql-15; .ci/run does)",
    );
  return true;
}

export interface Postgres {
  /** postgres://iris@127.0.0.1:PORT/postgres (trust login: no password). */
  url: string;
  port: number;
  dir: string;
  /** Stops the server at once (no shutdown checkpoint) and removes its folder. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

/** Runs a server program, as the postgres user when this process is root (Postgres refuses root). */
function run(program: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const r = asRoot
    ? spawnSync("runuser", ["-u", "postgres", "--", program, ...args], { encoding: "utf8" })
    : spawnSync(program, args, { encoding: "utf8" });
  if (r.status !== 0)
    throw new Error(
      `${program} ${args[0] ?? ""} failed (${r.status}): ${(r.stderr || r.stdout || "").trim()}`,
    );
}

export async function startPostgres(): Promise<Postgres> {
  const initdb = binary("initdb");
  const pgCtl = binary("pg_ctl");
  if (!initdb || !pgCtl) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql-15)");
  const dir = mkdtempSync(join(tmpdir(), "iris-pg-"));
  const data = join(dir, "data");
  const sock = join(dir, "sock");
  const logDir = join(dir, "log");
  mkdirSync(sock);
  mkdirSync(logDir);
  // The data and log folders must belong to the server's user.
  if (process.getuid?.() === 0) spawnSync("chown", ["-R", "postgres:", dir]);
  const port = await freePort();
  try {
    run(initdb, ["-D", data, "-A", "trust", "-U", "iris", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]);
    const options = `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    run(pgCtl, ["-D", data, "-o", options, "-l", join(logDir, "postgres.log"), "-w", "start"]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let closed = false;
  return {
    url: `postgres://iris@127.0.0.1:${port}/postgres`,
    port,
    dir,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
