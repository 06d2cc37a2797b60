// `iris models [--provider ID]`: the catalogue's models with context window and price, marked
// ✓ where the current keys (environment and the profile's .env) can reach the provider; a custom
// or local provider's models are what its server lists.

import type { Profile } from "@iris/host";
import { getProvider, listCatalogue, type ModelInfo } from "@iris/llm";
import type { GlobalFlags } from "../flags.js";
import { endpointOf, fetchServerModels, listsFromServer } from "../server-models.js";
import { profileOrExit } from "./with-records.js";

export type Reach = "key" | "local" | "no key";

export function reachOf(providerId: string, profile: Profile): Reach {
  const def = getProvider(providerId);
  if (def?.local || (def && def.keyEnv.length === 0)) return "local";
  const configured = profile.config.providers[providerId]?.api_key_env;
  const vars = [...(configured ? [configured] : []), ...(def?.keyEnv ?? [])];
  return vars.some((v) => (profile.env[v] ?? "").trim() !== "") ? "key" : "no key";
}

const k = (n: number) =>
  n >= 1_000_000 ? `${Number((n / 1_000_000).toFixed(1))}M` : `${Math.round(n / 1000)}K`;

export function priceText(info: ModelInfo): string {
  const { input, output } = info.price;
  if (input === 0 && output === 0) return "free/unknown";
  return `$${input} / $${output}`;
}

export function formatModels(models: readonly ModelInfo[], reach: (provider: string) => Reach): string {
  const rows = models.map((m) => [
    reach(m.provider) === "no key" ? " " : "✓",
    `${m.provider}/${m.model}`,
    k(m.contextWindow),
    priceText(m),
  ]);
  const w = Math.max(20, ...rows.map((r) => r[1]!.length));
  const head = `  ${"model".padEnd(w)}  ${"window".padStart(7)}  price per 1M tokens (input / output)`;
  return `${[head, ...rows.map(([mark, name, win, price]) => `${mark} ${name!.padEnd(w)}  ${win!.padStart(7)}  ${price}`)].join("\n")}\n`;
}

/** A custom or local provider's models, as its server lists them (`GET /models`). */
async function serverListing(profile: Profile, flags: GlobalFlags, provider: string): Promise<number> {
  const route = {
    provider,
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiMode ? { apiMode: flags.apiMode } : {}),
  };
  const found = endpointOf(profile, route);
  if (!found.ok) {
    process.stderr.write(`iris: ${found.error}\n`);
    return 2;
  }
  const listed = await fetchServerModels(found.endpoint);
  if (!listed.ok) {
    process.stderr.write(`iris: ${provider}: ${listed.error}\n`);
    return 1;
  }
  process.stdout.write(`models served by ${provider} at ${found.endpoint.baseUrl}:\n`);
  for (const m of listed.models) process.stdout.write(`  ${provider}/${m}\n`);
  if (!listed.models.length) process.stdout.write("  (none)\n");
  return 0;
}

export async function modelsCommand(flags: GlobalFlags, opts: { provider?: string }): Promise<number> {
  // A listing: a config with errors gets a warning for each key left out, not an exit.
  const profile = profileOrExit(flags, { readOnly: true });
  if (typeof profile === "number") return profile;
  const id = opts.provider ? (getProvider(opts.provider)?.id ?? opts.provider) : undefined;
  if (id && listsFromServer(id, profile)) return serverListing(profile, flags, id);
  const models = listCatalogue(id);
  if (!models.length) {
    process.stderr.write(`iris: the catalogue has no models for provider '${opts.provider}'\n`);
    return 2;
  }
  process.stdout.write(formatModels(models, (p) => reachOf(p, profile)));
  const reachable = new Set(models.map((m) => m.provider).filter((p) => reachOf(p, profile) !== "no key"));
  process.stdout.write(
    `\n✓ = reachable with the current keys (${reachable.size ? [...reachable].sort().join(", ") : "none: see iris setup"})\n`,
  );
  // The configured provider is a custom or local endpoint: what it serves too.
  const current = profile.config.model.provider;
  if (!id && current && listsFromServer(current, profile)) {
    process.stdout.write("\n");
    return serverListing(profile, flags, current);
  }
  return 0;
}
