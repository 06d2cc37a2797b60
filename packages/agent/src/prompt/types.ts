// What the frozen system prompt is made of (SPEC S1). Everything is a plain value the caller
// gathered beforehand, so building the prompt is pure and repeatable byte for byte (S2).

export interface SkillEntry {
  name: string;
  description: string;
}

export interface EnvironmentInfo {
  /** e.g. "linux", "darwin". */
  os: string;
  /** e.g. "/bin/bash"; omitted when unknown. */
  shell?: string;
  cwd: string;
  /** Where the terminal and file tools run when not this machine ("ssh iris@gpu:22 in /work"). */
  workspace?: string;
}

export interface ProjectContext {
  /** Where it came from, relative to the working directory ("AGENTS.md", "../../CLAUDE.md"). */
  path: string;
  content: string;
}

export interface PromptInputs {
  /** SOUL.md content; missing or blank → the default identity. Ignored for subagents. */
  identity?: string;
  /** Names of the tools this session offers; guidance is given only for these. */
  toolNames: readonly string[];
  /** The skills index (name and description only; bodies are read on demand). */
  skills: readonly SkillEntry[];
  environment: EnvironmentInfo;
  /** The caller's own system message (API server, ACP, gateway channel prompt). */
  callerSystemMessage?: string;
  /** The first of .iris.md, AGENTS.md, CLAUDE.md found. */
  projectContext?: ProjectContext;
  /** Cap for the project context (default 20,000 characters). */
  projectContextMaxChars?: number;
  /** MEMORY.md and USER.md as they were at session start (frozen snapshots). */
  memory?: string;
  user?: string;
  /** When given, the snapshot headers show use against the limits (SPEC U6). */
  memoryLimits?: { memory: number; user: number };
  /** Static block of an external memory provider (SPEC K4). */
  memoryProviderBlock?: string;
  /** Date only, `YYYY-MM-DD` (a clock time would change the prompt every minute). */
  date: string;
  model: string;
  provider: string;
  /** SPEC S3: default identity, no context layer. */
  subagent?: boolean;
}

export interface PromptLayers {
  stable: string;
  context: string;
  volatile: string;
}
