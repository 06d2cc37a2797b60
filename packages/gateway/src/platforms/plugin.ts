// What a gateway platform brings (SPEC G1; platforms/README.md): each lives in
// platforms/<id>/ with a config.ts (its section of `gateway.platforms`, zod only, so the `iris`
// bin can register every schema without loading a client library) and a plugin.ts (the rest).
// The generated index (index.generated.ts) lists them; nothing outside a platform's folder names
// its id, so adding one is a new folder and `node scripts/gen-platform-index.mjs`.

import type { Logger } from "@iris/llm";
import type { z } from "zod";
import type { PlatformAdapter } from "../adapter.js";
import type { CommandIo } from "../commands.js";
import type { GatewayIdentities } from "../state/index.js";

/** Where a platform runs: enough to name its lock before anything else starts. */
export interface PlatformPlace {
  /** The profile's home folder (where a platform keeps files, e.g. the web chat's token). */
  home: string;
  /** The profile's environment (its .env over the process's): where token_env is read. */
  env: Readonly<Record<string, string | undefined>>;
}

export interface PlatformContext extends PlatformPlace {
  logger: Logger;
}

export interface PlatformPlugin<C = unknown> {
  readonly id: string;
  /** Its section of `gateway.platforms` (the same object config.ts exports). */
  readonly schema: z.ZodType<C>;
  /** The adapter; throws an Error naming the platform and the key when the config cannot work. */
  create(config: C, ctx: PlatformContext): PlatformAdapter;
  /**
   * The bot's machine-wide identity: one running adapter per identity (a bot token is polled by
   * one process only). Hash a token before putting it here; it names the lock file only.
   */
  identity(config: C, place: PlatformPlace): string;
  /** How the refusal of a second gateway names the bot ("bot @iris_bot"), never a secret. */
  describe(config: C, place: PlatformPlace): string;
  /**
   * Whether its events come as HTTP requests to this process (webhooks) rather than over a
   * connection or a poll it holds. On a store several processes share (Postgres) every gateway
   * process serves them, no connection lock taken; inbound dedupe runs a redelivery once.
   */
  eventsOverHttp?(config: C): boolean;
  /** User ids or names allowed without pairing. */
  allowedUsers(config: C): readonly string[];
  /** Chats `send_message` and cron may post to without having talked there first. */
  sendTargets(config: C): readonly string[];
  /**
   * Chats (by id) whose sessions are limited to these toolsets: their text comes from outside
   * (a webhook route's JSON body), so they get only what the config allows them.
   */
  toolsets?(config: C): Readonly<Record<string, readonly string[]>>;
  /** How the platform shows text, for the model (added to each turn's system prompt). */
  readonly formattingHint: string;
  /** An example `send_message` target on this platform ("PLATFORM:CHAT"). */
  readonly targetExample: string;
  /** A line for the operator's terminal once the adapter started (stderr only). */
  startNotice?(
    adapter: PlatformAdapter,
    host: { identities: GatewayIdentities },
  ): string | undefined | Promise<string | undefined>;
}

/**
 * A platform's own subcommands, `iris gateway <id> <command>` (the web chat's users): the
 * optional cli.ts of its folder. Plain data the `iris` bin reads at start; `run` loads the rest
 * only when the command runs.
 */
export interface PlatformCli {
  description: string;
  commands: readonly {
    name: string;
    /** Positional arguments, each required. */
    args: readonly string[];
    description: string;
    run(io: CommandIo, args: readonly string[]): Promise<number>;
  }[];
}

/** Checks at compile time that a plugin's parts agree on its config type. */
export function definePlatform<C>(plugin: PlatformPlugin<C>): PlatformPlugin<C> {
  return plugin;
}
