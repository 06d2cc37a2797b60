// `iris sessions export ID --format openai`: one line in the layout of OpenAI's chat fine-tuning
// files, as `iris batch --format openai` writes it: `messages` (tool calls as `tool_calls`) with
// `tools` alongside. A stored session keeps no copy of its menu, so `tools` holds the schemas of
// the built-in tools it called, as they are now (an MCP tool it called is named in the messages only).
import { openAiTools, toOpenAiMessages } from "@iris/batch";
import type { SessionRow } from "@iris/host";
import type { Message, ToolSpec } from "@iris/llm";
import { loadBuiltinTools, ToolRegistry, toToolSpec } from "@iris/tools";

/** The built-in tools' schemas by name (loaded before the store is opened: loading is async). */
export async function builtinToolSpecs(): Promise<Map<string, ToolSpec>> {
  const registry = new ToolRegistry({ logger: { warn: () => {} } });
  await loadBuiltinTools(registry);
  return new Map(registry.list().map((def) => [def.name, toToolSpec(def)]));
}

export function openAiExport(
  s: SessionRow,
  messages: readonly Message[],
  builtins: Map<string, ToolSpec>,
): string {
  const called = new Set<string>();
  for (const m of messages)
    if (m.role === "assistant") for (const p of m.parts) if (p.type === "toolCall") called.add(p.name);
  const specs = [...called].sort().flatMap((name) => {
    const spec = builtins.get(name);
    return spec ? [spec] : [];
  });
  const { messages: out, reasoning } = toOpenAiMessages(s.systemPrompt ?? "", messages);
  const tools = openAiTools(specs);
  const line = {
    messages: out,
    ...(tools.length ? { tools } : {}),
    ...(reasoning.length ? { reasoning } : {}),
    id: s.id,
    title: s.title,
    model: s.model,
    provider: s.provider,
  };
  return `${JSON.stringify(line)}\n`;
}
