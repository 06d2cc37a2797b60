import { delegateTaskParams, notInterceptedError } from "../agent-level/schemas.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "delegate_task",
  toolset: "delegation",
  description:
    "Hand a self-contained subtask to a fresh subagent with its own budget; it sees only goal and context and returns its final answer.",
  parameters: delegateTaskParams,
  effect: "mutate",
  execute: async () => notInterceptedError("delegate_task"),
});
