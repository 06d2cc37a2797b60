// The `clarify` tool: asks the user a question through the front end's ctx.clarify.
import { z } from "zod";
import { defineTool } from "../define.js";

const parameters = z.object({
  question: z.string().min(1).describe("The question for the user."),
  choices: z
    .array(z.string().min(1))
    .max(4)
    .optional()
    .describe("Up to 4 suggested answers; the user may still answer freely."),
});

export default defineTool({
  name: "clarify",
  toolset: "clarify",
  label: "Ask",
  effect: "read",
  interactive: true,
  description:
    "Ask the user a question and wait for the answer. Use only when you cannot proceed without " +
    "their decision or information; optionally offer up to 4 choices.",
  parameters,
  async execute(args, ctx) {
    if (!ctx.clarify) {
      return {
        content:
          "Error: no user is available to answer questions in this session. " +
          "Make a reasonable assumption, state it, and continue.",
        isError: true,
      };
    }
    const answer = await ctx.clarify(args.question, args.choices);
    return `The user answered: ${answer}`;
  },
});
