import { memoryParams, notInterceptedError } from "../agent-level/schemas.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "memory",
  toolset: "memory",
  description:
    "Save durable notes across sessions: target memory (your notes) or user (facts about the user). Entries show in the next session's prompt. Limits are in characters; an over-limit write fails.",
  parameters: memoryParams,
  effect: "mutate",
  execute: async () => notInterceptedError("memory"),
});
