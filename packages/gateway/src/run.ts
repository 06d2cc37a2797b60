// `iris gateway run`: one long-running process per profile (SPEC G3). Takes the profile's lock
// and every bot identity's machine-wide lock, connects the configured platforms, and on SIGTERM
// or SIGINT stops taking messages, lets running turns end, and releases everything.

import { join } from "node:path";
import {
  type IrisProcess,
  loadProfileOrExit,
  IrisProcess as Process,
  type Profile,
  recordPlatformHealth,
  resolveMainRoute,
} from "@iris/host";
import type { PlatformAdapter } from "./adapter.js";
import type { CommandIo } from "./commands.js";
import { acquireLock, LockHeldError, tokenLockPath } from "./lock.js";
import { IrcAdapter } from "./platforms/irc.js";
import { saslOf } from "./platforms/irc-sasl.js";
import { WebchatAdapter } from "./platforms/webchat/adapter.js";
import { WebchatUsers } from "./platforms/webchat/users.js";
import { Gateway } from "./runner.js";
import { GatewayTools } from "./tools.js";

export interface RunOptions extends CommandIo {
  replace?: boolean;
  /** Resolves when the gateway should stop (default: SIGTERM, SIGINT or SIGHUP). */
  until?: Promise<void>;
  cwd?: string;
  /** The cron tick (default 60 s; tests make it shorter). */
  cronTickMs?: number;
}

export function adaptersFor(profile: Profile): { adapter: PlatformAdapter; identity: string }[] {
  const out: { adapter: PlatformAdapter; identity: string }[] = [];
  const irc = profile.config.gateway.platforms.irc;
  if (irc)
    out.push({
      adapter: new IrcAdapter({ ...irc, sasl: saslOf(irc.sasl, profile.env) }),
      identity: `irc:${irc.server.toLowerCase()}:${irc.port}:${irc.nick.toLowerCase()}`,
    });
  const web = profile.config.gateway.platforms.webchat;
  if (web)
    out.push({
      adapter: new WebchatAdapter({
        host: web.host,
        port: web.port,
        botName: web.bot_name,
        secretFile: join(profile.home.root, "webchat.secret"),
      }),
      // The port is the bot's identity; "any free port" (0) can clash with nothing.
      identity: web.port === 0 ? `webchat:${profile.home.root}` : `webchat:${web.host}:${web.port}`,
    });
  return out;
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
  const platforms = adaptersFor(profile);
  if (platforms.length === 0) {
    opts.err(
      "iris: no gateway platforms configured; add gateway.platforms.irc or gateway.platforms.webchat to config.yaml\n",
    );
    return 2;
  }
  const route = resolveMainRoute({}, profile.config, profile.env);
  if (!route.ok) {
    opts.err(`iris: ${route.error}\n`);
    return 2;
  }
  const until = opts.until ?? signalled();
  const releases: (() => void)[] = [];
  let iris: IrisProcess | undefined;
  let gateway: Gateway | undefined;
  try {
    releases.push(
      await acquireLock(profile.home.paths.gatewayPid, {
        what: `the gateway of profile ${profile.home.profile}`,
        home: profile.home.root,
        ...(opts.replace ? { replace: true } : {}),
      }),
    );
    for (const p of platforms)
      releases.push(
        await acquireLock(tokenLockPath(p.identity, opts.env), {
          what: `a gateway for ${p.adapter.platform} bot ${p.identity.split(":").at(-1)}`,
          home: profile.home.root,
          ...(opts.replace ? { replace: true } : {}),
        }),
      );
    const tools = new GatewayTools();
    iris = await Process.open({ profile, platform: "gateway", env: opts.env, extraTools: tools.definitions });
    gateway = new Gateway({
      tools,
      ...(opts.cronTickMs ? { cronTickMs: opts.cronTickMs } : {}),
      iris,
      adapters: platforms.map((p) => p.adapter),
      config: profile.config.gateway,
      cwd: opts.cwd ?? process.cwd(),
      logger: iris.logger.child({ component: "gateway" }),
    });
    await gateway.start();
    const opened = iris;
    for (const p of platforms) recordPlatformHealth(opened.store, p.adapter.platform, "connected");
    opts.err(
      `iris gateway: running (pid ${process.pid}) on ${platforms.map((p) => p.adapter.platform).join(", ")}\n`,
    );
    for (const { adapter } of platforms)
      if (adapter instanceof WebchatAdapter) {
        const users = new WebchatUsers(gateway.identities).list().length;
        opts.err(
          `iris gateway: web chat at ${adapter.url} (${users} user${users === 1 ? "" : "s"}; ` +
            "each logs in with their own token from `iris gateway webchat add-user NAME`)\n",
        );
      }
    await until;
    await gateway.stop();
    for (const p of platforms) recordPlatformHealth(opened.store, p.adapter.platform, "stopped");
    return 0;
  } catch (err) {
    opts.err(`iris: ${err instanceof LockHeldError || err instanceof Error ? err.message : String(err)}\n`);
    // The dashboard shows why (a port in use, a refused connection), never a secret: errors name no keys.
    if (iris)
      for (const p of platforms)
        recordPlatformHealth(
          iris.store,
          p.adapter.platform,
          "stopped",
          err instanceof Error ? err.message : String(err),
        );
    // A platform that started before another failed (IRC, then a web chat port in use) would keep
    // the process alive, unlocked, on a closed store.
    await gateway?.stop().catch(() => {});
    return 1;
  } finally {
    await iris?.close();
    for (const release of releases.reverse()) release();
  }
}
