import { z } from "zod";
import { defineTool } from "../define.js";
import { parseSkillFile } from "../skills/skill-file.js";

// Offered even to a session with no skills (so the agent can write the first one): the schema is
// kept short because it rides on every request.
const params = z
  .object({
    action: z.enum(["create", "edit", "delete"]),
    name: z.string().min(1).describe("lowercase-with-hyphens"),
    content: z.string().optional().describe("Whole SKILL.md: '---' front matter (name, description), body"),
  })
  .strict();

export default defineTool({
  name: "skill_manage",
  toolset: "skills",
  description:
    "Create, edit or delete a skill (a reusable procedure). The user approves; it loads next session.",
  parameters: params,
  effect: "mutate",
  approvalRule: (args) => {
    // A skill that pre-approves tools (allowed_tools) is asked about under its own key and names
    // them, so "always" for plain skills never covers granting tools.
    const parsed = args.content !== undefined ? parseSkillFile("SKILL.md", args.content) : undefined;
    const grants = parsed?.ok ? (parsed.skill.allowedTools ?? []) : [];
    return {
      key: grants.length ? "skill_manage:allowed_tools" : `skill_manage:${args.action}`,
      description: grants.length
        ? `${args.action} a skill that pre-approves these tools when loaded: ${grants.join(", ")}`
        : `${args.action} a skill in the skill library`,
      subject: `skill_manage ${args.action} ${args.name}`,
    };
  },
  execute: async (args, ctx) => {
    if (!ctx.skills)
      return { content: JSON.stringify({ error: "skills are not set up here" }), isError: true };
    if (args.action === "delete") return JSON.stringify({ deleted: ctx.skills.delete(args.name) });
    if (args.content === undefined)
      return {
        content: JSON.stringify({ error: `'content' is needed to ${args.action} a skill` }),
        isError: true,
      };
    const file = await ctx.skills.write(args.action, args.name, args.content);
    return JSON.stringify({ written: file, note: "the skill takes effect in the next session" });
  },
});
