// A throw-away PostgreSQL server for tests and benches: Debian's postgresql-15 binaries, a
// cluster made with `initdb --no-sync` in a temp folder, trust auth for the user `iris`, a free
// loopback port, fsync off. Run as root, the cluster's folders belong to the `postgres` user
// (the server refuses to run as root). `stop()` and `start()` take the server down and up again
// on the same port with its data kept, for tests of clients that must reconnect.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, skipUnlessInstalled, waitListening } from "./net.js";

/** The newest installed server's bin folder (Debian: /usr/lib/postgresql/VERSION/bin). */
function binDir(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], "bin") : undefined;
}

export function postgresInstalled(): boolean {
  return binDir() !== undefined;
}

export function skipWithoutPostgres(): boolean {
  return skipUnlessInstalled(
    postgresInstalled(),
    "PostgreSQL is not installed: these tests start a throw-away server (apt-get install -y postgresql-15; .ci/run does)",
  );
}

export interface PostgresServer {
  port: number;
  /** postgres://iris@127.0.0.1:PORT/DATABASE (trust auth: no password). */
  url(database?: string): string;
  /** Runs SQL through psql as `iris`; its stdout. */
  sql(text: string, database?: string): string;
  /** The database as `pg_dump` (the server's own, beside initdb) writes it, plain SQL: its stdout. */
  dump(args?: string[], database?: string): string;
  /** Takes the server down (`immediate`: as if it crashed), keeping its data. */
  stop(mode?: "fast" | "immediate"): void;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary; as root, as the `postgres` user. */
function run(bin: string, args: string[]): string {
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: "utf8" });
  if (r.status !== 0)
    throw new Error(`${bin.split("/").pop()} ${args[0] ?? ""} failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql-15)");
  const dir = mkdtempSync(join(tmpdir(), "iris-pg-"));
  // The server's own user must reach its folders below ours.
  chmodSync(dir, 0o755);
  const data = join(dir, "data");
  const sock = join(dir, "sock");
  const logDir = join(dir, "log");
  for (const d of [data, sock, logDir]) mkdirSync(d, { mode: 0o700 });
  if (asRoot) spawnSync("chown", ["-R", "postgres:postgres", data, sock, logDir]);
  run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "iris", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const log = join(logDir, "postgres.log");
  const opts = `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  let up = false;
  const start = async () => {
    run(join(bin, "pg_ctl"), ["-D", data, "-o", opts, "-l", log, "-w", "start"]);
    up = true;
    await waitListening(port, "postgres", () => undefined);
  };
  const stop = (mode: "fast" | "immediate" = "fast") => {
    if (!up) return;
    run(join(bin, "pg_ctl"), ["-D", data, "-m", mode, "-w", "stop"]);
    up = false;
  };
  try {
    await start();
  } catch (err) {
    const tail = existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
  const url = (database = "postgres") => `postgres://iris@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    sql: (text, database = "postgres") => {
      const r = spawnSync(join(bin, "psql"), [url(database), "-v", "ON_ERROR_STOP=1", "-qAtc", text], {
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`psql failed: ${r.stderr.trim()}`);
      return r.stdout;
    },
    dump: (args = [], database = "postgres") => {
      const r = spawnSync(join(bin, "pg_dump"), [...args, url(database)], {
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
      });
      if (r.status !== 0) throw new Error(`pg_dump failed: ${r.stderr.trim()}`);
      return r.stdout;
    },
    stop,
    start,
    close: async () => {
      try {
        stop("immediate");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
