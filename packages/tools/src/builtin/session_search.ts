import { notInterceptedError, sessionSearchParams } from "../agent-level/schemas.js";
import { defineTool } from "../define.js";

export default defineTool({
  name: "session_search",
  toolset: "session_search",
  description:
    "Search earlier conversations (not this one) by words or substrings, any language. Returns snippets.",
  parameters: sessionSearchParams,
  effect: "read",
  parallelSafe: true,
  execute: async () => notInterceptedError("session_search"),
});
