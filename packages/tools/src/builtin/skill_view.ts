import { z } from "zod";
import { defineTool } from "../define.js";

export default defineTool({
  name: "skill_view",
  toolset: "skills",
  description:
    "Read a skill: the body of its SKILL.md and the list of files beside it, or one of those files (`file`, a path inside the skill's folder).",
  parameters: z
    .object({
      name: z.string().min(1).describe("The skill's name"),
      file: z.string().min(1).optional().describe("A file of the skill, relative to its folder"),
    })
    .strict(),
  effect: "read",
  parallelSafe: true,
  execute: async (args, ctx) => {
    if (!ctx.skills)
      return { content: JSON.stringify({ error: "skills are not set up here" }), isError: true };
    return JSON.stringify(ctx.skills.view(args.name, args.file));
  },
});
