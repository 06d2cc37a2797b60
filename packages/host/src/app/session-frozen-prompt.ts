// The frozen-prompt lifecycle of one session (SPEC S2): the skills and the tool menu are read
// when the session starts and kept; the prompt is built from them, the profile, the working
// directory and the route, then an API client's instructions. It is rebuilt only at a new
// session, after a compression and on a model switch.
import type { Runtime } from "@iris/llm";
import { type Menu, projectSkillRoots, SkillLibrary } from "@iris/tools";
import type { Profile } from "../config/index.js";
import { followMenu, limitedMenu, readOnlyMenu, withoutEmptySkills } from "./session-menu.js";
import { defaultSystemPrompt, type PromptWorkspace, withInstructions } from "./session-system-prompt.js";
import type { SharedPrompts } from "./shared-prompts.js";
import type { ToolSetup } from "./tools-setup.js";

export interface FrozenPromptOptions {
  profile: Profile;
  cwd: string;
  source: string;
  tools: ToolSetup;
  runtime: () => Runtime;
  /** The workspace the session's tools use now (it changes with /workspace). */
  workspace?: () => PromptWorkspace;
  /** `--system-prompt` replaces the built prompt, `--append-system-prompt` adds to it. */
  promptEdits?: { replace?: string; append?: string };
  /** The session's tools are limited to these toolsets (the prompt names only those). */
  toolsets?: readonly string[];
}

export class FrozenPrompt {
  private skillLibrary: SkillLibrary | undefined;
  private menu: Menu | undefined;
  /** An API client's system text, frozen after Iris's prompt and kept when it is rebuilt. */
  private instructions: string | undefined;

  constructor(private readonly opts: FrozenPromptOptions) {}

  /** A new session: skills and menu are read afresh, the client's instructions replaced. */
  reset(instructions: string | undefined, fresh: boolean): void {
    if (fresh) {
      this.skillLibrary = undefined;
      this.menu = undefined;
    }
    this.instructions = instructions;
  }

  /** The skills of this session, read once: an edit shows in the next session. */
  get skills(): SkillLibrary {
    this.skillLibrary ??= new SkillLibrary(
      { profile: this.opts.profile.home.paths.skills, project: projectSkillRoots(this.opts.cwd) },
      this.opts.source.split(":")[0],
    );
    return this.skillLibrary;
  }

  /** Plan mode: the next turns are offered only the tools that read (the system prompt keeps the full menu). */
  readOnly = false;

  /** The menu for the next turn (the rule is in session-menu.ts). */
  menuForTurn(): Menu {
    const { tools } = this.opts;
    const live = tools.liveMenu?.() ?? tools.menu;
    const followed = this.menu ? followMenu(this.menu, live, tools.registry) : live;
    const limited = this.opts.toolsets
      ? limitedMenu(followed, this.opts.toolsets, tools, this.opts.profile.config)
      : followed;
    this.menu = withoutEmptySkills(limited, this.skills);
    return this.readOnly ? readOnlyMenu(this.menu) : this.menu;
  }

  /** Iris's frozen prompt built now, then the API client's instructions. */
  build(): string {
    const edits = this.opts.promptEdits;
    const built = edits?.replace ?? this.buildDefault();
    return withInstructions(edits?.append ? `${built}\n\n${edits.append}` : built, this.instructions);
  }

  /**
   * build() for a stateless conversation: Iris's prompt, skills and menu come from the process's
   * shared prompts, built once per working directory, platform and route (shared-prompts.ts).
   */
  buildShared(shared: SharedPrompts): string {
    if (this.opts.promptEdits) return this.build();
    const { cwd, source, profile } = this.opts;
    const rt = this.opts.runtime();
    const where = this.opts.workspace?.().description ?? "";
    const limit = this.opts.toolsets?.join(",") ?? "";
    const key = [cwd, source.split(":")[0], rt.provider, rt.model, this.readOnly, where, limit].join("\0");
    const { soul, memory, user } = profile.home.paths;
    const got = shared.get(key, [soul, memory, user], () => {
      this.skillLibrary = undefined;
      this.menu = undefined;
      const prompt = this.buildDefault();
      return { prompt, skills: this.skills, menu: this.menu ?? this.menuForTurn() };
    });
    this.skillLibrary = got.skills;
    this.menu = got.menu;
    return withInstructions(got.prompt, this.instructions);
  }

  private buildDefault(): string {
    const menu = this.menu ?? this.menuForTurn();
    return defaultSystemPrompt(
      this.opts.profile,
      this.opts.cwd,
      this.opts.runtime(),
      menu,
      () => this.skills,
      ...(this.opts.workspace ? [this.opts.workspace()] : []),
    );
  }
}
