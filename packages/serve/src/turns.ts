// One API request as one turn of a host Session (SPEC E3): a stateless request runs on an
// in-memory log holding the client's history; a stored session (X-Iris-Session-Id) is resumed
// from state.db. Each session gets its own working directory under the profile, its own approval
// memory and processes; sessions are owned by the API key that made them.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  type HostEvent,
  type IrisProcess,
  type RouteFlags,
  type Session,
  SessionBusyError,
  type TurnResult,
} from "@iris/host";
import {
  type Message,
  type ToolCallPart,
  type ToolResultMessage,
  type ToolSpec,
  toolCallsOf,
  type UserMessage,
} from "@iris/llm";
import { ApiError, badRequest } from "./errors.js";
import { openCalls } from "./open-calls.js";
import { Workdirs } from "./workdirs.js";

export type Conversation =
  | { kind: "memory"; history: Message[]; instructions: string }
  /** `sessionId` "new" starts one; answers are raw tool results for the session's open calls. */
  | {
      kind: "stored";
      sessionId: string;
      answers: { callId: string; content: string }[];
      /** The client's system text: frozen into a new session's prompt, ignored when resuming. */
      instructions: string;
    };

export interface TurnSpec {
  /** The API key's name ("local" without keys): owner of stored sessions. */
  caller: string;
  conversation: Conversation;
  input: UserMessage | null;
  clientTools: ToolSpec[];
  /** No tools at all in this turn (`iris/chat`, `tool_choice: "none"`). */
  noTools?: boolean;
  route?: RouteFlags;
  signal: AbortSignal;
  onEvent?: (e: HostEvent) => void;
}

export interface TurnOutcome {
  result: TurnResult;
  /** A stored session's id after the turn (compression may have moved it). */
  sessionId?: string;
  /** The conversation after the turn (what previous_response_id continues). */
  history: Message[];
  /** Calls of the client's own tools the client must run. */
  clientCalls: ToolCallPart[];
}

export interface PreparedTurn {
  /** A stored session's id (known before the turn runs, so a stream's headers can carry it). */
  sessionId?: string;
  run(): Promise<TurnOutcome>;
  dispose(): Promise<void>;
}

export interface TurnRunnerOptions {
  approvals: "deny" | "off";
  /** One directory for every session; default one per session under `root`. */
  workdir?: string;
  /** The profile folder. */
  root: string;
}

const NOBODY_TO_ASK =
  "Nobody can answer questions in this API request: continue with your best judgement and say what you assumed.";

/** A session another turn holds now (this process or another front end): 409 with Retry-After. */
export function busyAnswer(err: SessionBusyError): ApiError {
  return new ApiError(409, err.message, "invalid_request_error", "session_busy", "X-Iris-Session-Id", {
    "Retry-After": String(err.retryAfterSeconds),
  });
}

export class TurnRunner {
  private readonly workdirs: Workdirs;

  constructor(
    private readonly iris: IrisProcess,
    private readonly opts: TurnRunnerOptions,
  ) {
    this.workdirs = new Workdirs(join(opts.root, "serve"));
  }

  async run(spec: TurnSpec): Promise<TurnOutcome> {
    return (await this.prepare(spec)).run();
  }

  /**
   * Everything that can refuse the request (unknown or busy session, tool results that answer
   * nothing, a route that does not resolve) happens here, before a stream starts: the caller
   * then calls `run()` (which always cleans up) or `dispose()`.
   */
  async prepare(spec: TurnSpec): Promise<PreparedTurn> {
    const { conversation: conv } = spec;
    const stored = conv.kind === "stored" ? await this.claim(spec.caller, conv.sessionId) : undefined;
    let cwd: { path: string; temporary: boolean } | undefined;
    let session: Session | undefined;
    /** A tool ran in the request's directory (only a tool writes there). */
    let toolRan = false;
    let disposed: Promise<void> | undefined;
    const dispose = () => {
      disposed ??= (async () => {
        await session?.close("request done");
        if (cwd?.temporary) this.workdirs.release(cwd.path, toolRan);
      })();
      return disposed;
    };
    try {
      if (spec.input === null && conv.kind === "stored" && (conv.answers.length === 0 || !stored?.id))
        throw badRequest(
          "messages: nothing to continue: a new session starts with a user message",
          "messages",
        );
      // Refused before a stream starts; a turn that wins the race in between is refused by send.
      const refused = stored?.id ? await this.iris.turnRefusal(stored.id) : undefined;
      if (refused) throw refused;
      const answers =
        stored?.id && conv.kind === "stored" ? await this.answersFor(stored.id, conv.answers) : [];
      cwd = stored?.cwd ?? this.newWorkdir(conv.kind === "memory");
      const opened = this.iris.openSession({
        source: `api:${spec.caller}`,
        cwd: cwd.path,
        ...(spec.route ? { route: spec.route } : {}),
      });
      session = opened;
      opened.events.on("tool_exec_started", () => {
        toolRan = true;
      });
      if (conv.kind === "memory") opened.startInMemory(conv.history, conv.instructions || undefined);
      else if (!stored?.id) await opened.startSession(conv.instructions || undefined);
      else await opened.resumeSession(stored.id, answers);
      return {
        ...(conv.kind === "stored" ? { sessionId: opened.id } : {}),
        run: () => this.runPrepared(opened, spec, conv.kind === "stored").finally(dispose),
        dispose,
      };
    } catch (err) {
      void dispose();
      if (err instanceof ApiError) throw err;
      if (err instanceof SessionBusyError) throw busyAnswer(err);
      throw new ApiError(
        503,
        `cannot start the turn: ${(err as Error).message}`,
        "server_error",
        "route_unavailable",
      );
    }
  }

  private async runPrepared(session: Session, spec: TurnSpec, stored: boolean): Promise<TurnOutcome> {
    const unsubscribe = spec.onEvent ? session.subscribe(spec.onEvent) : () => {};
    try {
      const result = await session
        .send(spec.input, {
          signal: spec.signal,
          clientTools: spec.noTools ? "none" : spec.clientTools,
          frontEnd: {
            approve: async () => (this.opts.approvals === "off" ? "once" : "deny"),
            clarify: async () => NOBODY_TO_ASK,
          },
        })
        .catch((err: unknown) => {
          throw err instanceof SessionBusyError ? busyAnswer(err) : err;
        });
      const names = new Set(spec.clientTools.map((t) => t.name));
      const clientCalls =
        result.reason === "client_tool_calls" && result.message
          ? toolCallsOf(result.message).filter((c) => names.has(c.name))
          : [];
      return {
        result,
        ...(stored ? { sessionId: session.id } : {}),
        // A turn whose store failed has nothing more to read from it (the caller reports the error).
        history: result.reason === "store_error" ? [] : await session.history(),
        clientCalls,
      };
    } finally {
      unsubscribe();
    }
  }

  /** A stored session this caller may continue now ("new": none yet), or an ApiError. */
  private async claim(
    caller: string,
    sessionId: string,
  ): Promise<{ id?: string; cwd?: { path: string; temporary: boolean } }> {
    if (sessionId === "new") return {};
    // Another key's session is reported exactly like a missing one.
    const found = await this.iris.findSession(sessionId, { owner: (r) => r.source === `api:${caller}` });
    const row = found.ok ? found.row : undefined;
    if (!row)
      throw new ApiError(
        404,
        `no session ${sessionId} for this API key`,
        "invalid_request_error",
        "session_not_found",
        "X-Iris-Session-Id",
      );
    const path = row.cwd ?? this.newWorkdir(false).path;
    // A session's directory may have been removed by hand since: it comes back empty.
    mkdirSync(path, { recursive: true, mode: 0o700 });
    return { id: row.id, cwd: { path, temporary: false } };
  }

  /** The client's tool results, checked against the calls the stored session left open. */
  private async answersFor(
    sessionId: string,
    answers: { callId: string; content: string }[],
  ): Promise<ToolResultMessage[]> {
    if (!answers.length) return [];
    const open = openCalls(await this.iris.storedHistory(sessionId));
    return answers.map((a, i) => {
      const call = open.get(a.callId);
      if (!call)
        throw badRequest(
          `a tool message answers no open call of session ${sessionId} (tool_call_id ${JSON.stringify(a.callId)})`,
          `messages[${i}].tool_call_id`,
        );
      open.delete(a.callId);
      return { role: "tool", callId: a.callId, toolName: call.name, content: a.content, isError: false };
    });
  }

  private newWorkdir(temporary: boolean): { path: string; temporary: boolean } {
    if (this.opts.workdir) return { path: this.opts.workdir, temporary: false };
    return temporary
      ? { path: this.workdirs.forRequest(), temporary }
      : { path: this.workdirs.forSession(), temporary };
  }
}
