// Canonical tools and tool choice → Responses `tools` / `tool_choice`.
import type { ToolChoice, ToolSpec } from "../../types.js";
import { perSpecList } from "../wire-json.js";

const wireTools = perSpecList((t) => ({
  type: "function",
  name: t.name,
  description: t.description,
  parameters: t.parameters,
  strict: false,
}));

export function prepareTools(tools: readonly ToolSpec[] | undefined, choice: ToolChoice | undefined) {
  if (!tools || tools.length === 0) return {};
  return {
    tools: wireTools(tools),
    ...(choice === undefined
      ? {}
      : { tool_choice: typeof choice === "string" ? choice : { type: "function", name: choice.name } }),
  };
}
