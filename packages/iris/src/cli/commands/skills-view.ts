// The skills list as `iris skills list` and `/skills` print it.
import type { SkillLibrary } from "@iris/tools";

export function formatSkillList(library: SkillLibrary): string {
  const lines: string[] = [];
  if (library.skills.length === 0)
    lines.push(`no skills (add folders with a SKILL.md to ${library.roots.profile})`);
  for (const s of library.skills) lines.push(`${s.name}  (${s.scope})  ${s.description}`);
  for (const p of library.problems) lines.push(`skipped: ${p}`);
  return `${lines.join("\n")}\n`;
}
