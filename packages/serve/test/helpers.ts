// Starts `iris serve` in-process on a free port, against testkit's fake LLM server, with a temp
// home whose config.yaml and .env are written the way a user would write them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HostEvent, loadProfile } from "@iris/host";
import {
  type FakeLlm,
  type PostgresServer,
  startFakeLlm,
  startPostgres,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import OpenAI from "openai";
import { afterAll } from "vitest";
import { hashKey } from "../src/keys.js";
import { type RunningServer, startServer } from "../src/server.js";

export const ALICE = "sk-alice-0123456789";
export const BOB = "sk-bob-9876543210";

export interface Harness {
  fake: FakeLlm;
  server: RunningServer;
  home: TempDir;
  baseURL: string;
  client(key?: string): OpenAI;
  /** Stops the server and starts it again on the same port, home and store (a restart). */
  restart(): Promise<void>;
  /** Another server on the same profile and store (a replica), on its own port; closed with the harness. */
  replica(): Promise<RunningServer>;
  /** Resolves with the first process-wide event that matches. */
  nextEvent(match: (e: HostEvent) => boolean): Promise<HostEvent>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Extra lines under `serve:` (two-space indented already). */
  serve?: string[];
  /** Without API keys (loopback only). */
  noKeys?: boolean;
  keepAliveMs?: number;
  /** IRIS_LOG_LEVEL (default silent). */
  logLevel?: string;
  /** More providers (lines under `providers:`, two-space indented already). */
  providers?: string[];
  /** More top-level config lines (`fallback_providers:` …). */
  config?: string[];
  /** The profile's store on Postgres (store.backend: postgres) instead of state.db. */
  postgres?: { url: string; schema: string };
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const fake = await startFakeLlm();
  const home = tempDir("iris-serve-");
  const keys = opts.noKeys
    ? []
    : [
        "  api_keys:",
        "    - name: alice",
        "      env: SERVE_KEY_ALICE",
        "    - name: bob",
        `      sha256: ${hashKey(BOB)}`,
      ];
  writeFileSync(
    join(home.path, "config.yaml"),
    [
      "model:",
      "  provider: openai",
      "  name: gpt-4.1-mini",
      "providers:",
      "  openai:",
      `    base_url: ${fake.baseUrl}`,
      "    api_mode: chat_completions",
      ...(opts.providers ?? []),
      ...(opts.config ?? []),
      ...(opts.postgres ? ["store:", "  backend: postgres", `  schema: ${opts.postgres.schema}`] : []),
      ...(keys.length || opts.serve?.length ? ["serve:", ...keys, ...(opts.serve ?? [])] : []),
      "",
    ].join("\n"),
  );
  writeFileSync(join(home.path, ".env"), `OPENAI_API_KEY=fake-upstream-key\nSERVE_KEY_ALICE=${ALICE}\n`);
  const env = {
    IRIS_HOME: home.path,
    PATH: process.env.PATH ?? "",
    IRIS_LOG_LEVEL: opts.logLevel ?? "silent",
    ...(opts.postgres ? { IRIS_DATABASE_URL: opts.postgres.url } : {}),
  };
  const profile = loadProfile({ env });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const keepAliveMs = opts.keepAliveMs ?? 15_000;
  const first = await startServer({ profile, port: 0, env, keepAliveMs });
  const baseURL = `${first.url}/v1`;
  const replicas: RunningServer[] = [];
  const h: Harness = {
    fake,
    server: first,
    home,
    baseURL,
    client: (key = ALICE) => new OpenAI({ apiKey: key, baseURL, maxRetries: 0 }),
    restart: async () => {
      await h.server.close();
      // config.yaml and .env are read again, as a new process would.
      const again = loadProfile({ env });
      if (!again.ok) throw new Error(JSON.stringify(again.errors));
      h.server = await startServer({ profile: again, port: first.port, env, keepAliveMs });
    },
    replica: async () => {
      const r = await startServer({ profile, port: 0, env, keepAliveMs });
      replicas.push(r);
      return r;
    },
    nextEvent: (match) =>
      new Promise((resolve) => {
        const off = h.server.deps.iris.subscribe((e) => {
          if (!match(e)) return;
          off();
          resolve(e);
        });
      }),
    close: async () => {
      for (const r of replicas) await r.close();
      await h.server.close();
      await fake.close();
      home.cleanup();
    },
  };
  return h;
}

/** The text of every request body the fake server received, joined. */
export function sentBodies(fake: FakeLlm): string[] {
  return fake.requests.map((r) => r.rawBody.toString("utf8"));
}

/**
 * The harness options for an engine: a state.db, or a fresh schema (`<prefix>_N`) of one Postgres
 * server the test file starts when first asked and stops after its tests.
 */
export function engineOptions(prefix: string): (engine: "sqlite" | "postgres") => Promise<HarnessOptions> {
  let pg: Promise<PostgresServer> | undefined;
  let schemas = 0;
  afterAll(async () => {
    await (await pg)?.close();
  });
  return async (engine) => {
    if (engine === "sqlite") return {};
    pg ??= startPostgres();
    return { postgres: { url: (await pg).url(), schema: `${prefix}_${++schemas}` } };
  };
}
