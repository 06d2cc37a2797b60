// `hooks:` in config.yaml (SPEC E1): the user's own commands run on tool use and at the end of a
// turn, each given the event as one JSON object on stdin (as Claude Code's and Codex's hooks are).
// A pre_tool_use hook that exits with 2 blocks the call (its stderr is the reason the model gets).
import { z } from "zod";

const matcher = z
  .string()
  .min(1)
  .refine((s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  }, "a regular expression")
  .describe(
    "Tools it runs for: a regular expression matched against the whole tool name (unset: every tool).",
  );

const command = z
  .string()
  .min(1)
  .describe("Run with sh -c in the session's working directory; the event as JSON on stdin.");

const timeout = z
  .int()
  .min(1)
  .max(600)
  .default(60)
  .describe("Seconds before the hook is killed (a killed pre_tool_use hook does not block the call).");

const toolHook = z.strictObject({ matcher: matcher.optional(), command, timeout_seconds: timeout });
const turnHook = z.strictObject({ command, timeout_seconds: timeout });

export const hooksSchema = z.strictObject({
  pre_tool_use: z
    .array(toolHook)
    .default([])
    .describe(
      "Before a tool call runs (before its approval): exit 2 blocks it, stderr saying why; another failure is shown and the call runs.",
    ),
  post_tool_use: z
    .array(toolHook)
    .default([])
    .describe("After a tool call: its arguments and result on stdin; a failure is shown."),
  turn_end: z
    .array(turnHook)
    .default([])
    .describe("When a turn ends: how it ended and the answer on stdin; a failure is shown."),
});

export type HooksConfig = z.output<typeof hooksSchema>;
