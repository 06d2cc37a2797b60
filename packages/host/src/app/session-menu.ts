// The rule for a session's tool menu while MCP servers come, go and change their lists (SPEC S2,
// T2). The menu is taken afresh at each user message, never inside a turn: a server's
// tools/list_changed, or a server that came up late, reaches a running session at its next
// message. A tool the session already offered stays offered while it is still registered (a dead
// server's tool answers "not running, being restarted" rather than vanishing from under the
// model). The frozen system prompt is NOT rebuilt for a menu change: MCP tools are described by
// their own specs, not by the prompt, so the prompt is rebuilt only at session start, after a
// compression and on a model switch. A changed menu costs the cache of the tool list only when
// it actually changes; an unchanged one yields the same bytes.
import {
  DEFAULT_COMPOSITE_TOOLSETS,
  expandToolsets,
  type Menu,
  type SkillLibrary,
  type ToolRegistry,
} from "@iris/tools";
import type { IrisConfig } from "../config/index.js";
import { selectionConfig } from "./mcp-setup.js";
import type { ToolSetup } from "./tools-setup.js";

/**
 * A session with no skills is offered only `skill_manage` of the skills tools (a short schema), so
 * the agent can write the first skill; skills_list and skill_view come once there is a skill to
 * read. Without this their schemas would only cost every request bytes.
 */
export function withoutEmptySkills(menu: Menu, skills: SkillLibrary): Menu {
  const idle = (t: { name: string; toolset: string }) => t.toolset === "skills" && t.name !== "skill_manage";
  if (skills.skills.length > 0 || !menu.tools.some(idle)) return menu;
  // One menu per menu: every turn then offers the same specs array (its wire form is kept, llm).
  let less = withoutSkills.get(menu);
  if (!less) {
    const keep = menu.tools.map((t) => !idle(t));
    less = {
      tools: menu.tools.filter((_, i) => keep[i]),
      specs: menu.specs.filter((_, i) => keep[i]),
      unavailable: menu.unavailable,
    };
    withoutSkills.set(menu, less);
  }
  return less;
}
const withoutSkills = new WeakMap<Menu, Menu>();

export function followMenu(previous: Menu, live: Menu, registry: ToolRegistry): Menu {
  // The live menu itself or its skill-less copy keeps nothing live lacks (every turn of a
  // session whose menu did not change): no per-turn set and copies.
  if (previous === live || previous === withoutSkills.get(live)) return live;
  const offered = new Set(live.tools.map((t) => t.name));
  const kept = previous.tools
    .map((t, i) => ({ tool: t, spec: previous.specs[i] }))
    .filter(({ tool }) => !offered.has(tool.name) && registry.has(tool.name));
  if (kept.length === 0) return live;
  const rows = [
    ...live.tools.map((t, i) => ({ tool: t, spec: live.specs[i] })),
    ...kept.map(({ tool, spec }) => ({ tool: registry.get(tool.name) ?? tool, spec })),
  ].sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
  return {
    tools: rows.map((r) => r.tool),
    specs: rows.flatMap((r) => (r.spec ? [r.spec] : [])),
    unavailable: live.unavailable.filter((n) => !kept.some((k) => k.tool.name === n)),
  };
}

/**
 * Plan mode's menu: only the tools whose effect is `read` (read, search, todo, clarify). A tool not
 * offered does not run whatever the model calls, so nothing writes or runs a command.
 */
export function readOnlyMenu(menu: Menu): Menu {
  const keep = menu.tools.map((t) => t.effect === "read");
  return {
    tools: menu.tools.filter((_, i) => keep[i]),
    specs: menu.specs.filter((_, i) => keep[i]),
    unavailable: menu.unavailable,
  };
}

/**
 * A limited session's menu (OpenSessionOptions.toolsets): the tools of `menu` whose toolset the
 * names reach, through the same composites as config.yaml's toolsets (`safe`, `core`, `mcp`, …).
 * A tool not offered does not run, whatever the model calls.
 */
export function limitedMenu(
  menu: Menu,
  toolsets: readonly string[],
  tools: Pick<ToolSetup, "registry" | "mcp">,
  config: IrisConfig,
): Menu {
  const composites = {
    ...DEFAULT_COMPOSITE_TOOLSETS,
    ...selectionConfig(config, tools.mcp).compositeToolsets,
  };
  const known = new Set(tools.registry.list().map((t) => t.toolset));
  const reach = expandToolsets(toolsets, composites, known);
  const keep = menu.tools.map((t) => reach.all || reach.basic.has(t.toolset));
  return {
    tools: menu.tools.filter((_, i) => keep[i]),
    specs: menu.specs.filter((_, i) => keep[i]),
    unavailable: menu.unavailable,
  };
}
