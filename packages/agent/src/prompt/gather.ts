// Collects what the frozen prompt is built from. The only place of the prompt builder that reads
// files or the process environment; called once at session start (and after a compression or an
// explicit model switch), never per round.
import { readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { ProjectContext, PromptInputs, SkillEntry } from "./types.js";

/** Project instruction files, in order of preference within one folder. */
export const PROJECT_CONTEXT_FILES = [".iris.md", "AGENTS.md", "CLAUDE.md"] as const;
/** How far up a git root is looked for (deep monorepos stay well within this). */
const MAX_ASCENT = 32;

export interface PromptHomePaths {
  soul: string;
  memory: string;
  user: string;
}

export interface GatherOptions {
  /** The profile's files (Home.paths from the iris package fits). */
  homePaths: PromptHomePaths;
  cwd: string;
  toolNames: readonly string[];
  model: string;
  provider: string;
  /** The session's start; only its date (local time, or `timeZone`) enters the prompt. */
  now: Date;
  timeZone?: string;
  subagent?: boolean;
  skills?: readonly SkillEntry[];
  callerSystemMessage?: string;
  memoryLimits?: { memory: number; user: number };
  /** Memory disabled in config: MEMORY.md and USER.md are not read. */
  memoryEnabled?: boolean;
  memoryProviderBlock?: string;
  /** Defaults: process.platform and $SHELL. */
  os?: string;
  shell?: string;
  /** The session's workspace when it is not this machine (terminal.backend). */
  workspace?: string;
}

// A missing file is the common case (most folders hold no AGENTS.md): stat answers undefined for it
// rather than throwing, since an exception per missing file was most of a prompt's build.
function readIfFile(path: string): string | undefined {
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    // Missing or unreadable: treated as absent (the prompt must build anyway).
    return undefined;
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // unreadable (EACCES, ENOTDIR): as absent
  }
}

/** The nearest folder at or above `cwd` that holds `.git` (a folder, or a file for worktrees). */
export function findGitRoot(cwd: string): string | undefined {
  let dir = cwd;
  for (let i = 0; i < MAX_ASCENT; i++) {
    if (exists(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/**
 * The first project file found: folders from `cwd` up to the git root (only `cwd` outside a
 * repository, so a stray ~/AGENTS.md is never picked up), nearest folder first, and within a
 * folder .iris.md before AGENTS.md before CLAUDE.md.
 */
export function findProjectContext(from: string): ProjectContext | undefined {
  const cwd = resolve(from);
  const root = findGitRoot(cwd);
  const dirs = [cwd];
  if (root !== undefined && root !== cwd) {
    let dir = cwd;
    while (dir !== root && dirs.length <= MAX_ASCENT) {
      dir = dirname(dir);
      dirs.push(dir);
    }
  }
  for (const dir of dirs) {
    for (const name of PROJECT_CONTEXT_FILES) {
      const file = join(dir, name);
      const content = readIfFile(file);
      if (content !== undefined) return { path: relative(cwd, file).split(sep).join("/"), content };
    }
  }
  return undefined;
}

/** `YYYY-MM-DD` of `now`, in local time or in `timeZone`. */
export function dateOnly(now: Date, timeZone?: string): string {
  if (timeZone) {
    // en-CA formats dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(now);
  }
  const mm = String(now.getMonth() + 1).padStart(2, "0");
  const dd = String(now.getDate()).padStart(2, "0");
  return `${now.getFullYear()}-${mm}-${dd}`;
}

export function gatherPromptInputs(opts: GatherOptions): PromptInputs {
  const subagent = opts.subagent === true;
  const readMemory = !subagent && opts.memoryEnabled !== false;
  const inputs: PromptInputs = {
    toolNames: [...opts.toolNames],
    skills: [...(opts.skills ?? [])],
    environment: {
      os: opts.os ?? process.platform,
      cwd: opts.cwd,
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
      ...((opts.shell ?? process.env["SHELL"]) ? { shell: opts.shell ?? process.env["SHELL"] } : {}),
    },
    date: dateOnly(opts.now, opts.timeZone),
    model: opts.model,
    provider: opts.provider,
  };
  if (subagent) {
    // SPEC S3: a subagent gets the default identity and no context layer; it does not see the
    // user's private memory either (its parent passes what the task needs).
    inputs.subagent = true;
  } else {
    const soul = readIfFile(opts.homePaths.soul);
    if (soul !== undefined) inputs.identity = soul;
    if (opts.callerSystemMessage) inputs.callerSystemMessage = opts.callerSystemMessage;
    const project = findProjectContext(opts.cwd);
    if (project) inputs.projectContext = project;
  }
  if (readMemory) {
    const memory = readIfFile(opts.homePaths.memory);
    const user = readIfFile(opts.homePaths.user);
    if (memory !== undefined) inputs.memory = memory;
    if (user !== undefined) inputs.user = user;
    if (opts.memoryLimits) inputs.memoryLimits = opts.memoryLimits;
  }
  if (opts.memoryProviderBlock && !subagent) inputs.memoryProviderBlock = opts.memoryProviderBlock;
  return inputs;
}
