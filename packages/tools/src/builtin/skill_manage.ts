import { z } from "zod";
import { defineTool } from "../define.js";

const params = z
  .object({
    action: z.enum(["create", "edit", "delete"]),
    name: z.string().min(1).describe("The skill's name: lowercase letters, digits and hyphens"),
    content: z
      .string()
      .optional()
      .describe(
        "The whole SKILL.md for create and edit: '---' front matter with name and description, then the body",
      ),
  })
  .strict();

export default defineTool({
  name: "skill_manage",
  toolset: "skills",
  description:
    "Create, edit or delete a skill in the profile's skills folder (the user approves each change). Changes show in the next session.",
  parameters: params,
  effect: "mutate",
  approvalRule: (args) => ({
    key: `skill_manage:${args.action}`,
    description: `${args.action} a skill in the skill library`,
    subject: `skill_manage ${args.action} ${args.name}`,
  }),
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
