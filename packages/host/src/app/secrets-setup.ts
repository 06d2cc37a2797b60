// Fills the process's secret registry (issue 13): the terminal strips these from every child
// process, whatever the variables are called.
import { listProviders } from "@iris/llm";
import { processSecrets, SEARCH_BACKENDS, type SecretRegistry } from "@iris/tools";
import type { IrisConfig } from "../config/index.js";

export function registerSecrets(
  config: IrisConfig,
  env: Readonly<Record<string, string | undefined>>,
  keys: readonly (string | undefined)[],
  registry: SecretRegistry = processSecrets,
): void {
  const names = new Set<string>();
  for (const p of listProviders()) for (const n of p.keyEnv) names.add(n);
  for (const p of Object.values(config.providers)) if (p.api_key_env) names.add(p.api_key_env);
  // Search keys (web_search), whether or not a backend is chosen now.
  for (const b of Object.values(SEARCH_BACKENDS)) if (b.keyEnv) names.add(b.keyEnv);
  if (config.web.search.api_key_env) names.add(config.web.search.api_key_env);
  registry.addNames(names);
  registry.addValues([
    ...keys,
    ...Object.values(config.providers).map((p) => p.api_key),
    ...[...names].map((n) => env[n]),
  ]);
}
