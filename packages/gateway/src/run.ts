// `iris gateway run`: one long-running process per profile home (SPEC G3). Takes the home's lock
// and every bot identity's lock — on SQLite a machine-wide lock file; on Postgres the database's
// advisory lock, waited for while another gateway of the profile holds it (any number
// of processes on any machines, one connection per bot) — connects the configured platforms, and
// on SIGTERM or SIGINT stops taking messages, lets running turns end, and releases everything.

import {
  type IrisProcess,
  loadProfileOrExit,
  openProfileQueue,
  IrisProcess as Process,
  resolveMainRoute,
  unknownToolsets,
} from "@iris/host";
import type { CommandIo } from "./commands.js";
import { connectionLockName, waitForConnectionLocks } from "./connection-locks.js";
import { deliveryQueue } from "./cron-queue.js";
import { cronRunsOnQueue } from "./cron-worker.js";
import { acquireLock, LockHeldError, tokenLockPath } from "./lock.js";
import { registerGatewayPlatforms } from "./platform-configs.js";
import { HealthFile, healthPath } from "./platform-health.js";
import {
  type ConfiguredPlatform,
  createPlatform,
  knownPlatforms,
  loadPlatforms,
  type PlatformRules,
  rulesOf,
} from "./platforms/configured.js";
import { Gateway } from "./runner.js";
import { openGatewayTables } from "./state/index.js";
import { GatewayTools } from "./tools.js";

// Whoever imports the gateway reads `gateway.platforms` with every platform's schema.
registerGatewayPlatforms();

export interface RunOptions extends CommandIo {
  replace?: boolean;
  /** Resolves when the gateway should stop (default: SIGTERM, SIGINT or SIGHUP). */
  until?: Promise<void>;
  cwd?: string;
  /** The cron tick (default 60 s; tests make it shorter). */
  cronTickMs?: number;
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    for (const s of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(s, () => resolve());
  });
}

export async function gatewayRun(opts: RunOptions): Promise<number> {
  const loaded = loadProfileOrExit({ env: opts.env, ...(opts.profile ? { profile: opts.profile } : {}) });
  if (!loaded.ok) {
    opts.err(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const { profile } = loaded;
  const shared = profile.config.store.backend === "postgres";
  const sections = profile.config.gateway.platforms as Record<string, unknown>;
  if (Object.values(sections).every((v) => v === undefined)) {
    opts.err(
      `iris: no gateway platforms configured; add one of gateway.platforms.{${knownPlatforms().join(",")}} to config.yaml\n`,
    );
    return 2;
  }
  const route = resolveMainRoute({}, profile.config, profile.env);
  if (!route.ok) {
    opts.err(`iris: ${route.error}\n`);
    return 2;
  }
  const signal = opts.until ?? signalled();
  // A connection lock lost with its database connection stops this process (another takes over).
  let lockLost: Error | undefined;
  let loseLock: (err: Error) => void = () => {};
  const until = Promise.race([
    signal,
    new Promise<void>((resolve) => {
      loseLock = (err) => {
        lockLost ??= err;
        resolve();
      };
    }),
  ]);
  const releases: (() => void | Promise<void>)[] = [];
  let iris: IrisProcess | undefined;
  let gateway: Gateway | undefined;
  // The platforms being started: the dashboard's health rows name them when the start fails.
  let platformIds: string[] = [];
  // Set when turns still running at a signalled stop are left for the restart.
  let leaveRunning = false;
  try {
    const loadedPlatforms = await loadPlatforms(sections);
    platformIds = loadedPlatforms.map((p) => p.plugin.id);
    releases.push(
      await acquireLock(profile.home.paths.gatewayPid, {
        what: `the gateway of profile ${profile.home.profile}`,
        home: profile.home.root,
        ...(opts.replace ? { replace: true } : {}),
      }),
    );
    const ctx = { home: profile.home.root, env: profile.env };
    for (const p of shared ? [] : loadedPlatforms)
      releases.push(
        await acquireLock(tokenLockPath(p.plugin.identity(p.config, ctx), opts.env), {
          what: `a gateway for ${p.plugin.id} ${p.plugin.describe(p.config, ctx)}`,
          home: profile.home.root,
          ...(opts.replace ? { replace: true } : {}),
        }),
      );
    const tools = new GatewayTools(loadedPlatforms.map((p) => p.plugin.targetExample));
    iris = await Process.open({ profile, platform: "gateway", env: opts.env, extraTools: tools.definitions });
    const tables = await openGatewayTables(iris);
    void tables.processLock?.lost.then(loseLock);
    if (tables.tryLock) {
      // A platform whose events come as webhooks is served by every process (inbound dedupe
      // keeps a redelivery from running twice); one that connects or polls, by one at a time.
      const connected = loadedPlatforms.filter((p) => !p.plugin.eventsOverHttp?.(p.config));
      const held = await waitForConnectionLocks(
        tables.tryLock,
        connected.map((p) => ({
          name: connectionLockName(p.plugin.identity(p.config, ctx)),
          what: `${p.plugin.id} ${p.plugin.describe(p.config, ctx)}`,
        })),
        {
          until: signal,
          onWait: (what) =>
            opts.err(
              `iris gateway: waiting: another gateway process holds ${what}; taking over when it stops\n`,
            ),
        },
      );
      if (!held) return 0;
      for (const lock of held) {
        releases.push(() => lock.release());
        void lock.lost.then(loseLock);
      }
    }
    const logger = iris.logger.child({ component: "gateway" });
    const platforms: ConfiguredPlatform[] = loadedPlatforms.map((p) => createPlatform(p, { ...ctx, logger }));
    const rules: Record<string, PlatformRules> = {};
    for (const p of platforms) rules[p.adapter.platform] = rulesOf(p);
    for (const p of platforms)
      for (const [chat, names] of Object.entries(rules[p.adapter.platform]?.toolsets ?? {})) {
        const unknown = unknownToolsets(
          names,
          iris.tools,
          `gateway.platforms.${p.plugin.id} (${chat}): toolsets`,
        );
        if (unknown) throw new Error(unknown);
      }
    const health = new HealthFile(
      healthPath(profile.home.root),
      platforms.map((p) => p.adapter.platform),
    );
    const opened = iris;
    gateway = new Gateway({
      onWarning: (_platform, line) => opts.err(`iris gateway: warning: ${line}\n`),
      onPlatformStopped: (platform, reason) => {
        health.stopped(platform, reason);
        if (iris) void iris.recordPlatformHealth(platform, "stopped", reason);
        opts.err(`iris gateway: ${platform} stopped: ${reason}\n`);
      },
      tools,
      ...(opts.cronTickMs ? { cronTickMs: opts.cronTickMs } : {}),
      // On Postgres cron runs under the leader in `iris worker`s; this gateway sends the answers.
      ...(cronRunsOnQueue(profile)
        ? { deliveries: (platform: string) => openProfileQueue(profile, deliveryQueue(platform)) }
        : {}),
      iris,
      tables,
      adapters: platforms.map((p) => p.adapter),
      rules,
      config: profile.config.gateway,
      cwd: opts.cwd ?? process.cwd(),
      logger,
      health: (platform, state, error) => void opened.recordPlatformHealth(platform, state, error),
    });
    await gateway.start();
    for (const p of platforms) await opened.recordPlatformHealth(p.adapter.platform, "connected");
    opts.err(
      `iris gateway: running (pid ${process.pid}) on ${platforms.map((p) => p.adapter.platform).join(", ")}\n`,
    );
    if (cronRunsOnQueue(profile))
      opts.err(
        "iris gateway: cron jobs run in the profile's `iris worker` processes (one leads); this gateway sends their answers\n",
      );
    for (const p of platforms) {
      const notice = await p.plugin.startNotice?.(p.adapter, { identities: gateway.identities });
      if (notice) opts.err(`iris gateway: ${notice}\n`);
    }
    await until;
    // Running turns may finish their answers first; a signalled process leaves what still runs
    // for the restart to continue, as a kill would (closing would interrupt it for good).
    const signalledStop = opts.until === undefined;
    const graceMs = signalledStop ? profile.config.gateway.stop_grace_seconds * 1000 : 0;
    const { abandoned } = await gateway.stop({ graceMs, abandon: signalledStop });
    for (const p of platforms) await opened.recordPlatformHealth(p.adapter.platform, "stopped");
    if (lockLost) {
      opts.err(`iris: ${lockLost.message}; stopped (another gateway process may hold it now)\n`);
      return 1;
    }
    if (abandoned > 0) {
      opts.err(
        `iris gateway: stopped with ${abandoned} turn(s) still running; they are continued after the restart\n`,
      );
      leaveRunning = true;
    }
    return 0;
  } catch (err) {
    opts.err(`iris: ${err instanceof LockHeldError || err instanceof Error ? err.message : String(err)}\n`);
    // The dashboard shows why (a port in use, a refused connection), never a secret: errors name no keys.
    if (iris)
      for (const id of platformIds)
        await iris.recordPlatformHealth(id, "stopped", err instanceof Error ? err.message : String(err));
    // A platform that started before another failed (IRC, then a web chat port in use) would keep
    // the process alive, unlocked, on a closed store.
    await gateway?.stop().catch(() => {});
    return 1;
  } finally {
    if (!leaveRunning) await iris?.close();
    for (const release of releases.reverse()) await release();
    // The store stays as the turn left it (SQLite commits each row); the turn's open model call
    // or command would keep the process alive, so it ends here.
    if (leaveRunning) process.exit(0);
  }
}
