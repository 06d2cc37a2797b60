// A turn with no tools at all (an API client's `tool_choice: "none"`, a chat UI's background
// task on `iris/chat`): nothing is offered, so the model can only answer; a call it makes anyway
// is answered with an error instead of running anything.
import type { ToolCallPart, ToolSpec } from "@iris/llm";
import type { ToolBox } from "../ports.js";

export const NO_TOOLS: ToolBox = {
  specs: () => [],
  traits: () => undefined,
  run: (call: ToolCallPart) =>
    Promise.resolve({
      content: JSON.stringify({
        error: `no tools are offered in this conversation; ${call.name} did not run`,
      }),
      isError: true,
    }),
};

/** Tools an API client offers next to Iris's own, or "none" (no tools in the turn). */
export type ClientTools = readonly ToolSpec[] | "none";
