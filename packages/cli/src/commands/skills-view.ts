// The skills list as `iris skills list` and `/skills` print it.
import type { SkillLibrary } from "@iris/tools";

export function formatSkillList(library: SkillLibrary): string {
  const lines: string[] = [];
  if (library.skills.length === 0)
    lines.push(`no skills (add folders with a SKILL.md to ${library.roots.profile})`);
  for (const s of library.skills) {
    lines.push(`${s.name}  (${s.scope})  ${s.description}`);
    // What loading it grants (allowed_tools): only a profile skill's list pre-approves.
    if (s.allowedTools?.length)
      lines.push(
        `  ${s.scope === "profile" ? "pre-approves when loaded" : "allowed_tools, not granted (project skill)"}: ${s.allowedTools.join(", ")}`,
      );
  }
  for (const p of library.problems) lines.push(`skipped: ${p}`);
  return `${lines.join("\n")}\n`;
}
