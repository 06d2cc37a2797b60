// Canonical tools and tool choice → Anthropic `tools` / `tool_choice`.
import type { ToolChoice, ToolSpec } from "../../types.js";

export function prepareTools(tools: readonly ToolSpec[] | undefined): Record<string, unknown>[] {
  return (tools ?? []).map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
}

export function prepareToolChoice(choice: ToolChoice | undefined): Record<string, unknown> | undefined {
  if (choice === undefined) return undefined;
  if (choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}
