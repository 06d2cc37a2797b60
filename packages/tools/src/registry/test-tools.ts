// Small tool definitions shared by the registry tests (not a test file itself, not shipped in
// the index: it lives outside builtin/).
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../define.js";

export function fakeTool(name: string, toolset: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({
    name,
    toolset,
    description: `The ${name} tool.`,
    parameters: z.object({ text: z.string().describe("what to echo") }),
    effect: "read",
    execute: async (args: { text: string }) => args.text,
    ...extra,
  }) as ToolDefinition;
}

export function memoryLogger(): { warn(message: string): void; messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (m) => void messages.push(m) };
}
