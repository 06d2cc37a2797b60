// What every route handler of `iris serve` works with: built once per server.
import type { IrisConfig, IrisProcess } from "@iris/host";
import type { IdempotencyCache } from "./idempotency.js";
import type { ApiKey } from "./keys.js";
import type { KeyLimits } from "./limits.js";
import type { ModelIds } from "./models.js";
import type { ResponseStore } from "./response-store.js";
import type { TurnRunner } from "./turns.js";

export interface ServeDeps {
  iris: IrisProcess;
  config: IrisConfig["serve"];
  keys: ApiKey[];
  runner: TurnRunner;
  models: ModelIds;
  responses: ResponseStore;
  idempotency: IdempotencyCache;
  limits: KeyLimits;
  /** Comment keep-alives while tools run (and once at each tool start). */
  keepAliveMs: number;
  /** How often a replica running a background response says so (readers elsewhere wait 5 beats). */
  streamBeatMs: number;
  /** Background turns running here: stopped, and their records ended, before the server closes. */
  background: Set<BackgroundTurn>;
  /** Names of Iris's own tools: a client tool may not take one. */
  ownToolNames: ReadonlySet<string>;
}

export interface BackgroundTurn {
  stop(): void;
  /** Resolves once the turn ended and its record is written. */
  ended: Promise<void>;
}

/** Per-request values the middleware sets. */
export interface ServeEnv {
  Variables: {
    /** The API key's name, or "local" when the server has no keys. */
    caller: string;
    /** Whom stored Responses state and idempotency answers belong to ("local" without keys). */
    owner: string;
    /** Set once a turn ended as it should: only such answers are kept for Idempotency-Key. */
    complete: boolean;
  };
}
