// What a Session is opened with, and what its send() takes and gives back.
import type { ClientTools, TurnResult } from "@iris/agent";
import type { Runtime, UserMessage } from "@iris/llm";
import type { Store } from "@iris/store";
import type { Workspace } from "@iris/tools";
import type { Profile } from "../config/index.js";
import type { RouteFlags } from "./route.js";
import type { LogChoice } from "./session-log.js";
import type { SessionParent } from "./session-parent.js";
import type { TurnAsks, TurnHooks } from "./session-prompts.js";
import type { ToolSetup } from "./tools-setup.js";

export interface SessionOptions {
  /** The process that owns the session (events, cooldowns, logger, turn locks). */
  parent: SessionParent;
  profile: Profile;
  runtime: Runtime;
  store: Store;
  /** The process's registry and menu, with this session's own approval policy (its memory). */
  tools: ToolSetup;
  /** cli, gateway:telegram, acp, api, batch, cron, … */
  source: string;
  cwd: string;
  maxRounds?: number;
  route?: RouteFlags;
  /** Sent after the frozen prompt at call time, never stored (OpenSessionOptions). */
  ephemeralSystemPrompt?: string;
  /** `--system-prompt` replaces the built prompt, `--append-system-prompt` adds to it. */
  promptEdits?: { replace?: string; append?: string };
  /** The conversation log startSession() opens (default: the store's). */
  log?: LogChoice;
  /** Where its tools run (IrisProcess builds it from terminal.backend). */
  workspace: Workspace;
  /** Its menu limited to these toolsets (OpenSessionOptions.toolsets). */
  toolsets?: readonly string[];
}

/** What a turn ended with, and the messages typed during it that no round took (send them next). */
export type SendResult = TurnResult & { unsent: UserMessage[] };

export interface SendOptions {
  /** What the front end adds to the turn besides asking (files, tool hooks). */
  frontEnd?: TurnHooks;
  /** Who answers approvals and clarify questions (default `events`, answered by answer()). */
  asks?: TurnAsks;
  signal?: AbortSignal;
  /** An API client's own tools: their calls end the turn (`client_tool_calls`). */
  clientTools?: ClientTools;
}
