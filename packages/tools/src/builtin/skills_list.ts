import { z } from "zod";
import { defineTool } from "../define.js";

export default defineTool({
  name: "skills_list",
  toolset: "skills",
  description:
    "List the skills of this session (name, description, where it lives). Read one with `skill_view` before you follow it.",
  parameters: z.object({}).strict(),
  effect: "read",
  parallelSafe: true,
  execute: async (_args, ctx) => {
    if (!ctx.skills)
      return { content: JSON.stringify({ error: "skills are not set up here" }), isError: true };
    return JSON.stringify({
      skills: ctx.skills.skills.map((s) => ({ name: s.name, description: s.description, scope: s.scope })),
      ...(ctx.skills.problems.length ? { skipped: ctx.skills.problems } : {}),
    });
  },
});
