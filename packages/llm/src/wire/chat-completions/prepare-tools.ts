// Canonical tool specs and tool choice → Chat Completions `tools` / `tool_choice`.
import type { ToolChoice, ToolSpec } from "../../types.js";
import { perSpecList } from "../wire-json.js";

export interface PreparedTools {
  tools?: readonly object[];
  tool_choice?: string | Record<string, unknown>;
}

const wireTools = perSpecList((t) => ({
  type: "function",
  function: { name: t.name, description: t.description, parameters: t.parameters },
}));

export function prepareTools(
  tools: readonly ToolSpec[] | undefined,
  choice: ToolChoice | undefined,
  routeAcceptsTools: boolean,
): PreparedTools {
  if (!routeAcceptsTools || !tools || tools.length === 0) return {};
  const out: PreparedTools = {
    tools: wireTools(tools),
  };
  if (choice !== undefined) {
    out.tool_choice =
      typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
  }
  return out;
}
