// One gateway per profile (SPEC G3), run as a user runs it: the built `iris` bin against a real
// ngircd. A second start refuses naming the first's pid; --replace takes over within 10 s; the
// bot's identity is locked across home folders; `stop` and `status` see the running one.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeLlm,
  type Ngircd,
  skipWithoutNgircd,
  startFakeLlm,
  startNgircd,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

interface Running {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function iris(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [IRIS_BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let out = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  child.stdout?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, stderr: () => err + out, exited };
}

async function until(what: () => boolean, label: () => string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${label()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const skip = skipWithoutNgircd();

describe.skipIf(skip)("one gateway per profile", () => {
  let ircd: Ngircd;
  let fake: FakeLlm;
  let dir: TempDir;
  const started: Running[] = [];
  const envFor = (home: string) => ({ IRIS_HOME: home, IRIS_LOCK_DIR: join(dir.path, "locks") });

  beforeAll(async () => {
    [ircd, fake] = await Promise.all([startNgircd(["#test"]), startFakeLlm()]);
    dir = tempDir("iris-gw-lock");
    for (const home of ["home1", "home2"]) {
      mkdirSync(join(dir.path, home));
      writeFileSync(
        join(dir.path, home, "config.yaml"),
        `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}"}}\n` +
          `gateway:\n  platforms:\n    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: lockbot, channels: ["#test"]}\n`,
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const r of started) if (r.child.exitCode === null) r.child.kill("SIGKILL");
    await Promise.all(started.map((r) => r.exited));
    await Promise.all([ircd?.stop(), fake?.close()]);
    dir?.cleanup();
  }, 60_000);

  it("refuses a second start, hands over on --replace, locks the bot across homes, stops", async () => {
    const home1 = join(dir.path, "home1");
    const first = iris(["gateway", "run"], envFor(home1));
    started.push(first);
    await until(() => first.stderr().includes("running (pid"), first.stderr);
    const pid1 = first.child.pid;

    const status = iris(["gateway", "status"], envFor(home1));
    expect(await status.exited).toBe(0);
    expect(status.stderr()).toContain(`running (pid ${pid1}`);

    const second = iris(["gateway", "run"], envFor(home1));
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`already running (pid ${pid1}`);

    // Another home with the same IRC bot: refused by the machine-wide bot lock.
    const other = iris(["gateway", "run"], envFor(join(dir.path, "home2")));
    expect(await other.exited).toBe(1);
    expect(other.stderr()).toMatch(new RegExp(`irc bot lockbot is already running \\(pid ${pid1}`));

    const replacing = iris(["gateway", "run", "--replace"], envFor(home1));
    started.push(replacing);
    await until(() => replacing.stderr().includes("running (pid"), replacing.stderr);
    // Stopped cleanly by SIGTERM (one that ignores it is killed after 10 s: lock.test.ts).
    expect(await first.exited).toBe(0);

    const stop = iris(["gateway", "stop"], envFor(home1));
    expect(await stop.exited).toBe(0);
    expect(stop.stderr()).toContain(`stopped the gateway of profile default (pid ${replacing.child.pid})`);
    expect(await replacing.exited).toBe(0);
    const after = iris(["gateway", "status"], envFor(home1));
    expect(await after.exited).toBe(3);
    expect(after.stderr()).toContain("not running");
  }, 90_000);
});
