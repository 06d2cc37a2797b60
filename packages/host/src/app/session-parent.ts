// What a Session needs from its process (ARCHITECTURE.md "Process scope and session scope"), as a
// narrow port so the session file does not import the process that owns it.
import type { CooldownBook } from "@iris/agent";
import type { Logger } from "@iris/llm";
import type { EventFanout } from "./events.js";
import type { RouteLimiter } from "./route-limiter.js";
import type { TurnLocks } from "./session-turn-lock.js";
import type { SharedPrompts } from "./shared-prompts.js";

export interface SessionParent {
  /** The process-wide subscribers (every session's events go there too). */
  readonly events: EventFanout;
  readonly logger: Logger;
  /** Route cooldowns shared by every session (and kept in the store for the next process). */
  readonly cooldowns: CooldownBook;
  /** The per-route rate limiter every session's calls go through (a 429 slows them all). */
  readonly routeLimiter?: RouteLimiter;
  /** The sessions of this process with a turn running (one turn at a time per session). */
  readonly turns: TurnLocks;
  /** Stateless conversations' prompts, built once per working directory and route. */
  readonly sharedPrompts?: SharedPrompts;
  /** The session closed: the process forgets it. */
  forget(session: object): void;
}
