// The start tests' gateways (telegram/discord/slack-start): profiles in temp folders sharing one
// lock folder, `iris gateway run`'s code path in this process, and a second gateway as another
// process (the built bin, as a user starts it: the lock is per process).
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { gatewayRun } from "../src/run.js";
import { writeGatewayProfile } from "./profile.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

export class StartHomes {
  private readonly dirs: TempDir[] = [];
  readonly locks: TempDir;

  /** `platformLine`: the platform's line under `gateway.platforms`. */
  constructor(
    prefix: string,
    private readonly fake: FakeLlm,
    private readonly platformLine: string,
  ) {
    this.locks = tempDir(`${prefix}-locks`);
  }

  /** A profile with `env` as its .env (undefined: none). */
  home(env: string | undefined): TempDir {
    const d = tempDir("iris-start-home");
    this.dirs.push(d);
    if (env !== undefined) writeFileSync(join(d.path, ".env"), env);
    writeGatewayProfile(d.path, this.fake, ["gateway:", "  platforms:", `    ${this.platformLine}`]);
    return d;
  }

  /** Runs the gateway on `d` until `until` resolves; its exit code and stderr. */
  run(d: TempDir, until = Promise.resolve()): { running: Promise<number>; err: () => string } {
    let err = "";
    const running = gatewayRun({
      env: { IRIS_HOME: d.path, IRIS_LOCK_DIR: this.locks.path },
      out: () => {},
      err: (s) => {
        err += s;
      },
      until,
      cwd: d.path,
    });
    return { running, err: () => err };
  }

  /** Starts a gateway on a new home with `env` and waits until it runs; `stop` ends it. */
  async first(env: string): Promise<{ running: Promise<number>; stop: () => void; err: () => string }> {
    let stop = () => {};
    const first = this.run(
      this.home(env),
      new Promise<void>((r) => {
        stop = r;
      }),
    );
    for (let i = 0; !first.err().includes("running (pid"); i++) {
      if (i > 1500) throw new Error(`the first never started: ${first.err()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return { ...first, stop };
  }

  /** `iris gateway run` as another process on another home with `env`, to its end. */
  second(env: string): SpawnSyncReturns<string> {
    const other = this.home(env);
    return spawnSync(process.execPath, [IRIS_BIN, "gateway", "run"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: other.path,
        IRIS_HOME: other.path,
        IRIS_LOCK_DIR: this.locks.path,
      },
      cwd: other.path,
      encoding: "utf8",
      timeout: 30_000,
    });
  }

  cleanup(): void {
    for (const d of this.dirs) d.cleanup();
    this.locks.cleanup();
  }
}
