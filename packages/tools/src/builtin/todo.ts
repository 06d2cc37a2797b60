import { notInterceptedError, todoParams } from "../agent-level/schemas.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "todo",
  toolset: "todo",
  description:
    "Your task list for this session. Call with todos to write (merge:true updates by id), without to read. Keep one item in_progress.",
  parameters: todoParams,
  effect: "read",
  execute: async () => notInterceptedError("todo"),
});
