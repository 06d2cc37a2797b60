// The process scope (ARCHITECTURE.md "Process scope and session scope"): one per Iris process,
// whether it serves one CLI user or thousands of chats. It owns what every conversation shares —
// the profile (config and .env, read once), the store, the tool registry and menu, the model
// catalogue view, the route cooldowns, the logger and the process-wide event subscribers — and
// the only close() that closes the store. Sessions are opened from it and close on their own.

import { join } from "node:path";
import { CooldownBook, DEFAULT_COOLDOWN_MS, StoreRouteHealth, storedHistory } from "@iris/agent";
import {
  configureLogging,
  getLogger,
  LOG_LEVELS,
  type Logger,
  type LogLevel,
  type Message,
  type Runtime,
} from "@iris/llm";
import type { PlatformState, Store, TableAccess, TableSet } from "@iris/store";
import type { ApprovalJudge, ToolDefinition } from "@iris/tools";
import { closeBrowsers } from "@iris/tools";
import type { Profile } from "../config/index.js";
import { recordPlatformHealth } from "../dashboard/platform-health.js";
import { makeApprovalJudge } from "./approval-judge.js";
import { SwitchablePolicy } from "./approval-modes.js";
import { EventFanout, type HostEventListener } from "./events.js";
import { type InMemoryState, storeOf } from "./in-memory-state.js";
import { registerProcessStore } from "./process-store.js";
import { openProfileStore } from "./profile-store.js";
import { modelInfoFor, type RouteFlags, resolveMainRoute, routeFlagsOf } from "./route.js";
import { RouteLimiter } from "./route-limiter.js";
import { Session } from "./session.js";
import { findSession, type LookupOptions, listLiveSessions, type SessionLookup } from "./session-finder.js";
import { forkSession } from "./session-fork.js";
import type { LogChoice } from "./session-log.js";
import type { SessionParent } from "./session-parent.js";
import { type SessionBusyError, TurnLocks } from "./session-turn-lock.js";
import { SharedPrompts } from "./shared-prompts.js";
import { type McpStateRecorder, mcpStateRecorder, storePageIndex } from "./store-services.js";
import { setUpTools, type ToolSetup } from "./tools-setup.js";
import { sessionWorkspace } from "./workspace-setup.js";

export interface ProcessOptions {
  profile: Profile;
  /** Whose tool menu sessions get: cli, gateway, acp, api, batch, … */
  platform: string;
  yolo?: boolean;
  /** An open store to use (and close): tests' (they look at what was stored). Default: the
   * profile's store (config.yaml's `store:`), opened here. */
  store?: Store;
  /** Keep nothing in the profile's store: use this in-memory state, shared with other processes
   * (a batch run's), and leave it open at close (its opener closes it after them). */
  inMemory?: InMemoryState;
  /**
   * Where diagnostics go. Default: the process-wide logger, configured here once — level from
   * IRIS_LOG_LEVEL or config `logging.level`, lines in the profile's logs/iris.log, secrets
   * redacted — so warnings never land in a chat or on a protocol's stdout.
   */
  logger?: Logger;
  /** The environment for IRIS_LOG_LEVEL (default the profile's: the process's with its .env). */
  env?: Record<string, string | undefined>;
  /** A rate limiter shared with other IrisProcess scopes of this OS process (default: its own). */
  routeLimiter?: RouteLimiter;
  /** Tools a front end brings (the gateway's send_message and cronjob), offered per toolsets. */
  extraTools?: readonly ToolDefinition[];
}

/** Configures the process-wide logger from the profile (once per process: the last call wins). */
export function configureProcessLogging(profile: Profile, env: Record<string, string | undefined>): Logger {
  // The profile's .env wins over the process's environment, as for every other variable.
  const fromEnv = profile.env.IRIS_LOG_LEVEL ?? env.IRIS_LOG_LEVEL;
  const level: LogLevel = (LOG_LEVELS as string[]).includes(fromEnv ?? "")
    ? (fromEnv as LogLevel)
    : profile.config.logging.level;
  configureLogging({ level, file: join(profile.home.paths.logs, "iris.log") });
  return getLogger({ component: "host" });
}

export interface OpenSessionOptions {
  /** cli, gateway:telegram, acp, api, batch, cron, … (stored on the session row) */
  source: string;
  cwd: string;
  /** Route flags (the CLI's --provider/--model/--base-url/--api-mode); config decides the rest. */
  route?: RouteFlags;
  /** An already resolved main route; wins over `route`. */
  runtime?: Runtime;
  maxRounds?: number;
  /**
   * Added to the system prompt at call time only (a batch item's `system`): never part of the
   * frozen prompt stored with the session, so it never shows up in a saved conversation.
   */
  ephemeralSystemPrompt?: string;
  /** `--system-prompt` replaces the built prompt, `--append-system-prompt` adds to it. */
  promptEdits?: { replace?: string; append?: string };
  /**
   * The conversation log: the store's (default), `memory` (nothing in state.db) or a `jsonl`
   * file (batch trajectories). Compression, receipts and shaping work the same on each.
   */
  log?: LogChoice;
  /**
   * Limits the session's tools to these toolsets (composites expanded), within what the process
   * offers: a turn whose text comes from outside (a webhook's body) gets only what its route
   * allows. `[]`: no tools. The limit holds for every turn, resumed or not, and its subagents.
   */
  toolsets?: readonly string[];
}

/** Distinct route flags remembered (API clients choose routes by model name). */
const MAX_REMEMBERED_ROUTES = 64;

export class IrisProcess implements SessionParent {
  /** Every session's tagged events, for front ends that listen process-wide. */
  readonly events = new EventFanout();
  /** The sessions with a turn running in this process (Session.send takes one). */
  readonly turns = new TurnLocks();
  /** Stateless conversations' prompts (an API server's requests), shared by working directory. */
  readonly sharedPrompts = new SharedPrompts();
  private readonly sessions = new Set<Session>();
  /** Main routes resolved so far, by their route flags (mainRoute). */
  private readonly routes = new Map<string, Runtime>();
  /** Route cooldowns of every session, kept in the store so the next process honours them. */
  readonly cooldowns: CooldownBook;
  private closing: Promise<void> | undefined;
  private mcpStates: McpStateRecorder | undefined;
  /** Whether close() closes the store (not an InMemoryState's, which others share). */
  private ownsStore = true;

  static async open(opts: ProcessOptions): Promise<IrisProcess> {
    const { profile } = opts;
    const logger = opts.logger ?? configureProcessLogging(profile, opts.env ?? profile.env);
    const store = opts.inMemory ? storeOf(opts.inMemory) : (opts.store ?? (await openProfileStore(profile)));
    const ownsStore = !opts.inMemory;
    const mcpStates = mcpStateRecorder(store, opts.platform, logger.child({ component: "mcp" }));
    try {
      const tools = await setUpTools({
        config: profile.config,
        configPath: profile.home.paths.config,
        profileDir: profile.home.base,
        platform: opts.platform,
        ...(opts.yolo ? { yolo: true } : {}),
        logger: logger.child({ component: "tools" }),
        env: profile.env,
        ...(opts.extraTools ? { extraTools: opts.extraTools } : {}),
        // Read pages and MCP states are kept in the store (either engine) for other processes.
        pages: storePageIndex(store, logger.child({ component: "tools" })),
        onMcpStatus: (statuses) => mcpStates.record(statuses),
      });
      const proc = new IrisProcess(profile, store, tools, logger, opts.routeLimiter ?? new RouteLimiter());
      proc.mcpStates = mcpStates;
      proc.ownsStore = ownsStore;
      registerProcessStore(proc, store);
      return proc;
    } catch (err) {
      if (ownsStore) await store.close();
      throw err;
    }
  }

  private constructor(
    readonly profile: Profile,
    /** Host's own: a front end goes through the methods of its sessions and the accessors below,
     * never the store itself (tests look at what was stored through @iris/host/testing). */
    private readonly store: Store,
    readonly tools: ToolSetup,
    readonly logger: Logger,
    readonly routeLimiter: RouteLimiter,
  ) {
    this.cooldowns = new CooldownBook(DEFAULT_COOLDOWN_MS, Date.now, new StoreRouteHealth(store));
  }

  /**
   * A new conversation slot: give it `startSession()` or `resumeSession(id)` next. It has its
   * own approval memory, processes, task directories and events; cooldowns are shared.
   * Throws when the route cannot be resolved (the message says why).
   */
  openSession(opts: OpenSessionOptions): Session {
    if (this.closing) throw new Error("the process is closing");
    const runtime = opts.runtime ?? this.mainRoute(opts.route ?? {});
    let session: Session | undefined;
    // Smart mode's judge asks this session's own model client (its route and fallbacks).
    const judge: ApprovalJudge = (request) =>
      session
        ? makeApprovalJudge(
            () => (session as Session).judgeModel(),
            (message, costUsd, latencyMs) =>
              (session as Session).recordAuxiliaryCall(message, costUsd, latencyMs),
          )(request)
        : Promise.resolve("escalate");
    session = new Session({
      parent: this,
      profile: this.profile,
      runtime,
      store: this.store,
      tools: {
        ...this.tools,
        policy: new SwitchablePolicy((mode) => this.tools.newPolicy(judge, mode), this.tools.defaultMode),
      },
      source: opts.source,
      cwd: opts.cwd,
      workspace: sessionWorkspace(this.profile, opts.cwd),
      ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
      ...(opts.route ? { route: opts.route } : {}),
      ...(opts.ephemeralSystemPrompt ? { ephemeralSystemPrompt: opts.ephemeralSystemPrompt } : {}),
      ...(opts.promptEdits ? { promptEdits: opts.promptEdits } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
    });
    this.sessions.add(session);
    return session;
  }

  /**
   * The main route for these flags, resolved once per process: the profile (config and .env) is
   * read once, so the answer never changes, and an API server opens a session per request.
   * Throws when it cannot be resolved (the message says why).
   */
  private mainRoute(flags: RouteFlags): Runtime {
    const key = JSON.stringify(routeFlagsOf(flags));
    let runtime = this.routes.get(key);
    if (!runtime) {
      const resolved = resolveMainRoute(flags, this.profile.config, this.profile.env);
      if (!resolved.ok) throw new Error(resolved.error);
      runtime = resolved.runtime;
      if (this.routes.size < MAX_REMEMBERED_ROUTES) this.routes.set(key, runtime);
    }
    return runtime;
  }

  /**
   * A stored session by id, short id or unique prefix, followed through compression splits to
   * the live one; `owner` makes another owner's session look missing (session-finder.ts).
   */
  findSession(ref: string, opts?: LookupOptions): Promise<SessionLookup> {
    return findSession(this.store, ref, opts);
  }

  /** One page of a front end's live sessions, newest first (session-finder.ts). */
  listSessions(opts: { source: string; cwd?: string; offset: number; limit: number }) {
    return listLiveSessions(this.store, opts);
  }

  /** Renames a stored session. */
  setSessionTitle(sessionId: string, title: string): Promise<void> {
    return this.store.setSessionTitle(sessionId, title);
  }

  /** A stored session's conversation as its next turn would see it (its active path). */
  storedHistory(sessionId: string): Promise<Message[]> {
    return storedHistory(this.store, sessionId);
  }

  /** A new stored session of `source` holding `sourceId`'s conversation as it stands; its id. */
  forkSession(sourceId: string, cwd: string, source: string): Promise<string> {
    return forkSession(this.store, sourceId, cwd, source);
  }

  /** The refusal a turn in `sessionId` would get now (another turn holds it), if any. */
  turnRefusal(sessionId: string): Promise<SessionBusyError | undefined> {
    return this.turns.refusal(this.store, sessionId);
  }

  /**
   * A front end's own tables (a table set: its migrations for each engine), brought to their
   * newest version in this profile's store and handed out through the store's narrow port. Only
   * the front end's state folder (src/state/) writes SQL for it (check-imports.mjs).
   */
  openTables(set: TableSet): Promise<TableAccess> {
    return this.store.openTables(set);
  }

  /** A messaging platform's state, for the dashboard (best effort: a busy store skips it). */
  recordPlatformHealth(platform: string, state: PlatformState, error?: string): Promise<void> {
    return recordPlatformHealth(this.store, platform, state, error);
  }

  /** Closes the store at once: the last thing before a forced exit (a signal). SQLite's file is
   * closed before this returns; a Postgres pool ends its connections as the process goes. */
  closeStoreNow(): void {
    if (this.ownsStore) void this.store.close();
  }

  /** Every session's tagged events (front ends serving many conversations). */
  subscribe(fn: HostEventListener): () => void {
    return this.events.subscribe(fn);
  }

  /** The sessions open now. */
  get openSessions(): number {
    return this.sessions.size;
  }

  /** The catalogue's view of a model with this profile's overrides (SPEC M1). */
  modelInfo(provider: string, model: string) {
    return modelInfoFor(provider, model, this.profile.config).info;
  }

  forget(session: object): void {
    this.sessions.delete(session as Session);
  }

  /** Closes every session, then the store. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.sessions].map((s) => s.close("process closing")));
      await this.tools.mcp.close();
      await this.mcpStates?.clear();
      this.sharedPrompts.close();
      await closeBrowsers(this.tools.registry.environment);
      // Cooldown writes still on their way land before the store closes.
      await this.cooldowns.settled();
      if (this.ownsStore) await this.store.close();
    })();
    return this.closing;
  }
}
