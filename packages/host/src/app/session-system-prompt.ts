// The frozen system prompt of a session (SPEC S1, S2): Iris's own, built from the profile, the
// working directory, the route and the menu, then an API client's system text when it sent one.
import { buildSystemPrompt, gatherPromptInputs } from "@iris/agent";
import type { Runtime } from "@iris/llm";
import type { Menu, SkillLibrary } from "@iris/tools";
import type { Profile } from "../config/index.js";
import { workspaceOfConfig } from "./workspace-setup.js";

/** Where the session's tools run, as the prompt says it. */
export interface PromptWorkspace {
  backend: string;
  description: string;
  remoteDir?: string;
}

export function defaultSystemPrompt(
  profile: Profile,
  cwd: string,
  runtime: Runtime,
  menu: Menu,
  skills: () => SkillLibrary,
  // The session's workspace in use (after /workspace); default: the config's choice.
  where: PromptWorkspace = workspaceOfConfig(profile.config),
): string {
  const memory = profile.config.memory;
  return buildSystemPrompt(
    gatherPromptInputs({
      homePaths: profile.home.paths,
      // On a remote workspace the tools start in its folder, not this machine's cwd.
      cwd: where.remoteDir ?? cwd,
      ...(where.backend !== "local" ? { workspace: where.description } : {}),
      toolNames: menu.specs.map((s) => s.name),
      ...(menu.specs.some((s) => s.name === "skill_view") ? { skills: skills().skills } : {}),
      model: runtime.model,
      provider: runtime.provider,
      now: new Date(),
      memoryEnabled: memory.enabled,
      memoryLimits: { memory: memory.memory_char_limit, user: memory.user_char_limit },
    }),
  );
}

/** Iris's frozen prompt, then an API client's own system text. */
export function withInstructions(prompt: string, instructions: string | undefined): string {
  return instructions ? `${prompt}\n\n# Instructions from the API client\n\n${instructions}` : prompt;
}
