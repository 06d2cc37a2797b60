// When no provider is configured, look for a local OpenAI-compatible server on its default port
// (Ollama, LM Studio, llama.cpp, vLLM) so the error can offer it. Only on that error path: a
// normal start never touches the network.
import { listProviders } from "@iris/llm";

export interface LocalServer {
  provider: string;
  label: string;
  baseUrl: string;
  models: string[];
}

export async function findLocalServers(
  timeoutMs = 400,
  fetchImpl: typeof fetch = fetch,
): Promise<LocalServer[]> {
  const locals = listProviders().filter((p) => p.local);
  const found = await Promise.all(
    locals.map(async (p): Promise<LocalServer | undefined> => {
      try {
        const res = await fetchImpl(`${p.baseUrl}/models`, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) return undefined;
        const body = (await res.json()) as { data?: { id?: unknown }[] };
        const models = (body.data ?? []).map((m) => String(m.id ?? "")).filter(Boolean);
        return { provider: p.id, label: p.label, baseUrl: p.baseUrl, models };
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((s): s is LocalServer => s !== undefined);
}

export function noProviderMessage(error: string, servers: LocalServer[]): string {
  const lines = [
    `iris: ${error}`,
    "",
    "To choose a model, do one of:",
    "  • put it in config.yaml:   model: { provider: openrouter, name: anthropic/claude-sonnet-4.5 }",
    "  • pass it on the command line:   iris --provider openai --model gpt-5-mini",
    "  • and set the provider's key, e.g. OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENROUTER_API_KEY",
    "    (in the environment or in the profile's .env).",
  ];
  for (const s of servers) {
    const model = s.models[0] ?? "MODEL";
    lines.push(
      "",
      `A local ${s.label} server answers at ${s.baseUrl}${s.models.length ? ` (models: ${s.models.slice(0, 5).join(", ")})` : ""}.`,
      `Use it with:   iris --provider ${s.provider} --model ${model}`,
    );
  }
  return lines.join("\n");
}
