// `iris gateway run` as its own process (the built bin) on a profile home, for the tests of
// several gateway processes sharing one Postgres profile: its stderr read as it comes, a wait for
// a line it says, SIGKILL, and a SIGTERM for whatever still runs at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

export interface SpawnedGateway {
  child: ChildProcess;
  stderr(): string;
  /** Resolves once stderr matches `pattern` (with the match); rejects if the process exits first. */
  said(pattern: string | RegExp): Promise<RegExpMatchArray>;
  kill(): Promise<void>;
}

/** Starts `iris gateway run` on `home` (cwd: its work folder), its store at `databaseUrl`. */
export function spawnGateway(home: string, databaseUrl: string): SpawnedGateway {
  const child = spawn(process.execPath, [IRIS_BIN, "gateway", "run"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      IRIS_HOME: home,
      IRIS_LOCK_DIR: join(home, "locks"),
      IRIS_DATABASE_URL: databaseUrl,
    },
    stdio: ["ignore", "ignore", "pipe"],
    cwd: join(home, "work"),
  });
  let err = "";
  const matchOf = (p: string | RegExp) =>
    typeof p === "string" ? (err.includes(p) ? ([p] as RegExpMatchArray) : null) : p.exec(err);
  const waiters: { pattern: string | RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stderr?.on("data", (d) => {
    err += d;
    for (const w of [...waiters]) {
      const m = matchOf(w.pattern);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  return {
    child,
    stderr: () => err,
    said: (pattern) =>
      new Promise((resolve, reject) => {
        const m = matchOf(pattern);
        if (m) return resolve(m);
        waiters.push({ pattern, resolve });
        child.once("exit", (code, signal) =>
          reject(new Error(`gateway exited (${code ?? signal}) before saying ${String(pattern)}: ${err}`)),
        );
      }),
    kill: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Stops (SIGTERM) every one still running and waits for it to exit. */
export async function stopGateways(all: readonly SpawnedGateway[]): Promise<void> {
  for (const { child } of all)
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
}
