// `iris serve` (SPEC E3): opens the profile's process (store, tools), checks the binding rule —
// loopback by default, any other address only with API keys — and serves the app on HTTP.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { IrisProcess, type Profile, resolveMainRoute } from "@iris/host";
import { createApp } from "./app.js";
import type { ServeDeps } from "./deps.js";
import { IdempotencyCache } from "./idempotency.js";
import { isLoopback, resolveApiKeys } from "./keys.js";
import { KeyLimits } from "./limits.js";
import { ModelIds } from "./models.js";
import { ResponseStore } from "./response-store.js";
import { openServeState } from "./state/index.js";
import { TurnRunner } from "./turns.js";

export interface ServeOptions {
  profile: Profile;
  /** Overrides serve.host / serve.port (the command line's --host / --port). */
  host?: string;
  port?: number;
  env?: Record<string, string | undefined>;
  /** Default 15 s. */
  keepAliveMs?: number;
  /** A background stream's beat; default 2 s. */
  streamBeatMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  deps: ServeDeps;
  close(): Promise<void>;
}

export class ServeStartError extends Error {}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const profile = isolatedProfile(opts.profile);
  const cfg = profile.config.serve;
  const host = opts.host ?? cfg.host;
  const port = opts.port ?? cfg.port;
  const keys = resolveApiKeys(cfg, profile.env);
  if (!keys.ok) throw new ServeStartError(keys.error);
  if (!isLoopback(host) && keys.keys.length === 0)
    throw new ServeStartError(
      `refusing to listen on ${host} without API keys: add serve.api_keys to config.yaml (\`iris serve hash-key\` prints a key's sha256), or bind 127.0.0.1`,
    );
  const route = resolveMainRoute({}, profile.config, profile.env);
  if (!route.ok) throw new ServeStartError(route.error);
  const iris = await IrisProcess.open({
    profile,
    platform: "api",
    ...(opts.env ? { env: opts.env } : {}),
    ...(cfg.approvals === "off" ? { yolo: true } : {}),
  });
  // Stored responses, Idempotency-Key answers and request counts: serve's own tables in the
  // profile's store (SQLite, or Postgres shared by replicas).
  let state: Awaited<ReturnType<typeof openServeState>>;
  try {
    state = await openServeState(iris);
  } catch (err) {
    await iris.close();
    throw new ServeStartError(`cannot open serve's tables: ${(err as Error).message}`);
  }
  const deps: ServeDeps = {
    iris,
    config: cfg,
    keys: keys.keys,
    runner: new TurnRunner(iris, {
      approvals: cfg.approvals,
      root: profile.home.root,
      ...(cfg.workdir ? { workdir: cfg.workdir } : {}),
    }),
    models: new ModelIds(route.runtime, profile.config),
    responses: new ResponseStore(state, cfg.responses_max, cfg.responses_ttl_seconds * 1000),
    idempotency: new IdempotencyCache(state, cfg.idempotency_ttl_seconds * 1000),
    limits: new KeyLimits(
      cfg.max_concurrent_per_key,
      cfg.requests_per_minute,
      Date.now,
      { size: cfg.queue_per_key, timeoutMs: cfg.queue_timeout_seconds * 1000 },
      state,
    ),
    keepAliveMs: opts.keepAliveMs ?? 15_000,
    streamBeatMs: opts.streamBeatMs ?? 2_000,
    background: new Set(),
    ownToolNames: new Set(iris.tools.menu.specs.map((s) => s.name)),
  };
  const app = createApp(deps);
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
      s.once("error", reject);
    });
  } catch (err) {
    await iris.close();
    throw new ServeStartError(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${bound}`,
    port: bound,
    host,
    deps,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Streams still open (a client that never reads) must not hold the shutdown.
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        // Background turns outlive their clients, not the server: each is stopped and its record
        // ends with response.failed while the store is still open, so readers elsewhere know.
        for (const turn of deps.background) turn.stop();
        await Promise.all([...deps.background].map((t) => t.ended));
        await iris.close();
      })();
      return closing;
    },
  };
}

/**
 * The profile as API sessions see it: unless serve.shared_memory, no long-term memory in the
 * prompt and, by default, no memory or session_search tool (both are profile-wide), so no key
 * reads what another key left there. An explicit `toolsets.api` in config.yaml is the user's call.
 */
function isolatedProfile(profile: Profile): Profile {
  const cfg = profile.config;
  if (cfg.serve.shared_memory) return profile;
  const api = cfg.toolsets.api;
  return {
    ...profile,
    config: {
      ...cfg,
      memory: { ...cfg.memory, enabled: false },
      toolsets: {
        ...cfg.toolsets,
        api: api ?? ["terminal", "file", "web", "todo", "delegation", "skills", "code_execution"],
      },
    },
  };
}
