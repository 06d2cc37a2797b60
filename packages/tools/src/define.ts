// A tool is data plus an execute function (SPEC T1). The registry, the dispatcher and the agent
// read these fields; nothing here knows about the agent or any front end.
import type { z } from "zod";
import type { FileAccessCheck } from "./approval/file-access.js";
import type { ApprovalMemory } from "./approval/memory.js";
import type { ModelCallSink, ToolEnvironment } from "./environment.js";
import type { JsonSchemaParameters } from "./json-schema/parameters.js";
import type { SkillLibrary } from "./skills/library.js";
import type { Workspace } from "./workspace/types.js";

/** Built-in tools describe their input with zod; MCP tools bring JSON Schema and a validator. */
export type ToolParameters = z.ZodType | JsonSchemaParameters;
/** The validated input a tool's execute() receives. */
export type ArgsOf<S extends ToolParameters> = S extends z.ZodType ? z.output<S> : Record<string, unknown>;

export type ToolEffect = "read" | "mutate" | "communicate" | "admin";

/** `deny_session`: denied, and the same patterns are denied unasked for the rest of the session. */
export type ApprovalAnswer = "once" | "session" | "always" | "deny" | "deny_session";

export interface ApprovalRequest {
  tool: string;
  /** The command or action as the user should read it. */
  command: string;
  /** Why it needs approval: the matched pattern's description. */
  reason: string;
  /** Stable key of the matched pattern, what "always" persists. */
  patternKey: string;
  /** Every matched pattern key still needing approval (the first is `patternKey`); added. */
  patternKeys?: string[];
  /** What answering "always" allows from now on, one line per pattern key (added). */
  alwaysAllows?: string[];
  /** Seconds the user has to answer before the command is denied (added). */
  timeoutSeconds?: number;
  /** The folder the command would run in, when known (the smart-mode judge reads it). */
  cwd?: string;
  /** The tool call this request is about (set by the tool box), so a front end can key its dialog to it. */
  callId?: string;
}

export interface ToolProgress {
  message: string;
  /** 0..1 when known. */
  fraction?: number;
}

export interface ToolContext {
  signal: AbortSignal;
  /** The turn's task id: keys per-task state such as the terminal's working directory. */
  taskId: string;
  sessionId?: string;
  /** Working directory of the session (per-task overrides live in the terminal tool). */
  cwd: string;
  /**
   * The work folder the approval check judges writes and reads against, when `cwd` has been
   * replaced by where the command runs (the dispatcher keeps the session's here). Added.
   */
  workdir?: string;
  /**
   * Where the tools run commands and touch files (local, editor, ssh, docker): the session's
   * workspace, with its background processes and per-task directories. Every tool goes through it.
   */
  workspace: Workspace;
  progress(p: ToolProgress): void;
  /**
   * Supplied by the front end; resolves to the user's answer. `signal` aborts when the question
   * timed out or the turn was cancelled: the front end then withdraws it (reason: "timeout" or
   * "cancelled"), so the next line typed is not taken as its answer.
   */
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer>;
  /** The session's "approved for this session" memory; without one, "session" acts as "once". */
  approvalMemory?: ApprovalMemory;
  /** Supplied by the front end for the clarify tool; the only blocking callback. */
  clarify?(question: string, choices?: string[]): Promise<string>;
  /** The session's skills (read once at session start); absent where skills are not set up. */
  skills?: SkillLibrary;
  /** False when nobody can answer `approve()` (cron, batch, piped runs). Default true. Added. */
  interactive?: boolean;
  /**
   * Called by the dispatcher after the arguments are valid and the call is approved, right before
   * the tool runs: where the agent begins its effect receipt (SPEC D4), so a call that was denied
   * or never approved leaves no receipt. `run: false` answers the call with `result` instead.
   * `filesBefore`: the files the call writes, as they are now (kept with the receipt, `/rewind`).
   */
  beforeExecute?(filesBefore: FileBefore[]): Promise<ExecuteGate>;
  /**
   * The profile's environment and secrets, a proxy-aware fetch behind the private-address guard,
   * and the web/browser settings. The dispatcher fills in the registry's when a caller gave none.
   */
  environment?: ToolEnvironment;
  /** Records a model call the tool made (the vision model) in the turn's usage and cost (F3). */
  recordModelCall?: ModelCallSink;
  /**
   * Runs another tool of the session's menu as a call of its own, through the same dispatch and
   * approval as a direct call (execute_code's inner calls). Supplied by the tool box. Added.
   */
  callTool?(name: string, argumentsJson: string): Promise<{ content: string; isError: boolean }>;
}

/** Text files through a front end (the editor workspace); paths are absolute. A missing file rejects. */
export interface FileAccess {
  readText(path: string): Promise<string>;
  writeText(path: string, content: string): Promise<void>;
}

/** One file as it was right before a call wrote it (dispatch/files-before.ts reads it). */
export interface FileBefore {
  /** The real path (symlinks resolved), where the tool writes. */
  path: string;
  /** Its bytes; null when there was no file. */
  content: Buffer | null;
  /** Set when no copy was kept (too large, unreadable): why. */
  skipped?: string;
}

export type ExecuteGate = { run: true } | { run: false; result: { content: string; isError: boolean } };

/** An image a tool shows the model (a screenshot): base64 data of a PNG, JPEG, GIF or WebP. */
export interface ToolImage {
  mediaType: string;
  data: string;
}

export type ToolResultValue = string | { content: string; isError?: boolean; images?: ToolImage[] };

export interface ToolDefinition<S extends ToolParameters = ToolParameters> {
  name: string;
  toolset: string;
  description: string;
  parameters: S;
  effect: ToolEffect;
  /** Safe to run beside other calls of the same response (SPEC L8). Default false. */
  parallelSafe?: boolean;
  /** Needs the user (clarify, approvals): forces the batch to run in order. */
  interactive?: boolean;
  /**
   * Whether the tool can be offered now, from the profile's config and environment; a string
   * means no and says why (`iris tools` shows it); an exception counts as unavailable (T2).
   */
  available?: (env: ToolEnvironment) => boolean | string | Promise<boolean | string>;
  /** Short label for progress lines. */
  label?: string;
  /**
   * The command or action the approval policy must check (T4), e.g. the terminal's command;
   * undefined means nothing to check. Added.
   */
  approvalSubject?(args: ArgsOf<S>): string | undefined;
  /**
   * A rule this call must be approved under whatever its subject (MCP tools that may change
   * things): the policy treats it like a matched pattern (remembered per session or always). Added.
   */
  approvalRule?(args: ArgsOf<S>): { key: string; description: string; subject: string } | undefined;
  /**
   * The folder the subject would run in, when the tool tracks its own (the terminal's per-task
   * `cd`); relative paths in the command are judged against it. Default `ctx.cwd`. Added.
   */
  approvalCwd?(ctx: ToolContext): string | undefined;
  /**
   * The files this call reads, searches or writes (absolute paths), for the file tools: judged
   * after resolving symlinks (credentials, Iris's own configuration, outside the work folder)
   * instead of a subject read as a command. Added.
   */
  approvalAccess?(args: ArgsOf<S>, ctx: ToolContext): FileAccessCheck[];
  /**
   * How to get the rest of an oversize result when the tool pages itself (read_file: "use offset
   * and limit"). Without it the dispatcher saves the full text to a file and gives its path. Added.
   */
  truncationHint?: string;
  execute(args: ArgsOf<S>, ctx: ToolContext): Promise<ToolResultValue>;
}

export function defineTool<S extends ToolParameters>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}
