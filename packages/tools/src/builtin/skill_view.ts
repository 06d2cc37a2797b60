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
    const view = ctx.skills.view(args.name, args.file);
    if (args.file !== undefined) return JSON.stringify(view);
    // Loading a skill makes it active (K4): a profile skill's `allowed_tools` run without asking
    // for the rest of the session. A project skill comes with the working directory (a cloned
    // repository), so its list grants nothing.
    const skill = ctx.skills.get(args.name);
    const allowed = skill?.allowedTools ?? [];
    if (allowed.length === 0) return JSON.stringify(view);
    if (skill?.scope === "profile" && ctx.approvalMemory) {
      ctx.approvalMemory.preapproveTools(args.name, allowed);
      return JSON.stringify({ ...view, pre_approved_tools: allowed });
    }
    return JSON.stringify({
      ...view,
      allowed_tools_not_granted: `${allowed.join(", ")}: only a profile skill's allowed_tools are pre-approved; these still ask`,
    });
  },
});
