// Parameters of the four agent-level tools (SPEC T5). They live here so the model sees their
// schemas through the registry; the agent intercepts the calls because they need its state.
import { z } from "zod";

export const todoParams = z
  .object({
    todos: z
      .array(
        z.object({
          id: z.string().min(1).describe("Stable id of the item"),
          content: z.string().min(1).describe("What to do"),
          status: z.enum(["pending", "in_progress", "done", "cancelled"]),
        }),
      )
      .optional()
      .describe("Items to write; omit to read the list"),
    merge: z
      .boolean()
      .optional()
      .describe("true: update items by id and keep the rest; false: replace the list"),
  })
  .strict();

export const memoryParams = z
  .object({
    action: z.enum(["add", "replace", "remove"]),
    target: z.enum(["memory", "user"]).describe("memory: notes for yourself; user: facts about the user"),
    content: z.string().optional().describe("Text to add, or the new text for replace"),
    old_text: z.string().optional().describe("A unique snippet of the entry to replace or remove"),
  })
  .strict();

export const sessionSearchParams = z
  .object({
    query: z.string().min(1).describe("Words or a phrase; any language"),
    limit: z.number().int().min(1).max(50).optional().describe("Most results to return (default 10)"),
  })
  .strict();

export const delegateTaskParams = z
  .object({
    goal: z.string().min(1).describe("The self-contained task for the subagent"),
    context: z.string().optional().describe("Everything the subagent needs to know; it sees nothing else"),
    toolsets: z.array(z.string()).optional().describe("Toolsets it may use (default: terminal, file)"),
  })
  .strict();

/** What the registry handler answers when a call reaches it instead of the agent. */
export function notInterceptedError(name: string): { content: string; isError: true } {
  return {
    content: JSON.stringify({
      error: `${name} needs the agent's state and must be handled by the agent; it reached the registry, which means the agent did not intercept it`,
    }),
    isError: true,
  };
}
