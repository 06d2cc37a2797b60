// Canonical tools and tool choice → Anthropic `tools` / `tool_choice`.
import type { ToolChoice, ToolSpec } from "../../types.js";
import { perSpec } from "../wire-json.js";

const wireTool = perSpec(
  (t): Record<string, unknown> => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
  }),
);

export function prepareTools(tools: readonly ToolSpec[] | undefined): Record<string, unknown>[] {
  return (tools ?? []).map(wireTool);
}

export function prepareToolChoice(choice: ToolChoice | undefined): Record<string, unknown> | undefined {
  if (choice === undefined) return undefined;
  if (choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}
