// `iris serve` as a user runs it, in a process of its own, for `bench/serve.ts --server-process`:
// the built CLI (packages/iris/bin/iris.js, which runs the bundle that `npm run build` makes), so
// the fake LLM server and the load generator do not share its CPU and a `--cpu-prof` of it is the
// server's alone. It runs in a session of its own (below). bench/serve-cpu.mjs, preloaded, reports
// its CPU and event-loop time on request.
//
// Until 2026-12-07 this was bench/serve-child.ts run through tsx: the packages' TypeScript sources
// (tsconfig paths map @iris/* to src), each function wrapped by esbuild's keepNames, as unbundled
// ES modules. That server spent more CPU per request than the deployed bundle (0.85 against
// 0.79 ms back to back at load ~11; an earlier measurement saw 1.3–1.5 times), and it ran in the
// bench's own session.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_BIN = join(ROOT, "packages", "iris", "bin", "iris.js");

/** The server process's CPU time and its event loop's busy and idle time so far (ms). */
export interface ServerUsage {
  cpuMs: number;
  loopBusyMs: number;
  loopIdleMs: number;
}

export interface ServeProcess {
  url: string;
  /** Which build runs: the bundle or the unbundled dist, and a warning when the bundle is stale. */
  build: string;
  usage(): Promise<ServerUsage>;
  close(): Promise<void>;
}

/** `node BIN serve --port 0` with `env`; `profDir` writes its CPU profile there (node --cpu-prof). */
export async function startServeProcess(
  bin: string,
  env: Record<string, string>,
  profDir?: string,
): Promise<ServeProcess> {
  return startServerProcess([bin, "serve", "--port", "0"], env, buildOf(bin), profDir);
}

/**
 * The minimal proxy (bench/serve-floor.mjs) in the same kind of process: it sends `upstreamFile`'s
 * bytes to `upstreamUrl` for every request.
 */
export async function startFloorProcess(
  upstreamFile: string,
  upstreamUrl: string,
  env: Record<string, string>,
): Promise<ServeProcess> {
  const script = fileURLToPath(new URL("./serve-floor.mjs", import.meta.url));
  return startServerProcess(
    [script],
    { ...env, FLOOR_UPSTREAM_FILE: upstreamFile, FLOOR_UPSTREAM_URL: upstreamUrl },
    "bench/serve-floor.mjs",
  );
}

async function startServerProcess(
  args: string[],
  env: Record<string, string>,
  build: string,
  profDir?: string,
): Promise<ServeProcess> {
  const prof = profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [];
  const preload = fileURLToPath(new URL("./serve-cpu.mjs", import.meta.url));
  const child = spawn(process.execPath, [...prof, "--import", preload, ...args], {
    env,
    stdio: ["pipe", "pipe", "inherit"],
    // A session of its own, as a server started by itself runs: Linux's autogroup scheduler shares
    // the CPU between sessions first, so in the bench's session the server and the load generator
    // would split one session's share whenever another session wants the CPU too.
    detached: true,
  });
  const stop = () => child.kill("SIGTERM");
  process.once("exit", stop);
  const waiting: ((u: ServerUsage) => void)[] = [];
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (let nl = out.indexOf("\n"); nl >= 0; nl = out.indexOf("\n")) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        const listening = /listening on (http:\/\/[^/\s]+)/.exec(line);
        if (listening?.[1]) resolve(listening[1]);
        else if (line.startsWith("cpu ")) {
          const [cpuMs = 0, loopBusyMs = 0, loopIdleMs = 0] = line.slice(4).split(" ").map(Number);
          waiting.shift()?.({ cpuMs, loopBusyMs, loopIdleMs });
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} ended (${code}) before it listened`)));
  });
  return {
    url,
    build,
    usage: () =>
      new Promise<ServerUsage>((resolve) => {
        waiting.push(resolve);
        child.stdin.write("cpu\n");
      }),
    close: () =>
      new Promise<void>((resolve) => {
        process.off("exit", stop);
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Which code `bin` runs (as bin/iris.js decides), and whether the bundle is older than a dist. */
function buildOf(bin: string): string {
  const pkg = join(dirname(bin), "..");
  const bundle = statSync(join(pkg, "dist", "bundle", "iris.cjs"), { throwIfNoEntry: false });
  const main = statSync(join(pkg, "dist", "main.js"), { throwIfNoEntry: false });
  if (!main) throw new Error(`${bin}: iris is not built: run \`npm run build\` first`);
  if (!bundle || bundle.mtimeMs < main.mtimeMs)
    return "the unbundled dist (no current bundle: `npm run build` makes one)";
  const newer = newestDist(join(pkg, ".."));
  return newer && newer.mtimeMs > bundle.mtimeMs
    ? `the bundle, OLDER than ${newer.path}: run \`npm run build\` or the change is not measured`
    : "the bundle";
}

function newestDist(packages: string): { path: string; mtimeMs: number } | undefined {
  let newest: { path: string; mtimeMs: number } | undefined;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "bundle") walk(path);
      } else if (e.name.endsWith(".js")) {
        const { mtimeMs } = statSync(path);
        if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
      }
    }
  };
  for (const name of readdirSync(packages)) {
    const dist = join(packages, name, "dist");
    if (statSync(dist, { throwIfNoEntry: false })?.isDirectory()) walk(dist);
  }
  return newest;
}

/** The whole machine's CPU ticks, busy and all (Linux /proc/stat), or undefined elsewhere. */
export function machineCpu(): { busy: number; all: number } | undefined {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]?.trim().split(/\s+/).slice(1, 9);
    const ticks = (fields ?? []).map(Number);
    const all = ticks.reduce((s, t) => s + t, 0);
    // idle and iowait
    return { busy: all - (ticks[3] ?? 0) - (ticks[4] ?? 0), all };
  } catch {
    return undefined;
  }
}
