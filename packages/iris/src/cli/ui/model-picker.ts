// The choices of `/model` without a name: the current provider's catalogue models, then the
// default model of every other provider the current keys reach.

import type { Session } from "@iris/host";
import { getProvider, listCatalogue, listProviders } from "@iris/llm";
import { priceText, reachOf } from "../commands/models.js";

const PER_PROVIDER = 20;

export interface ModelChoice {
  label: string;
  /** What `/model` is given: "NAME" or "PROVIDER/NAME". */
  spec: string;
}

export function modelChoices(host: Session): ModelChoice[] {
  const profile = host.profile;
  const current = host.runtime.provider;
  const win = (n: number) => `${Math.round(n / 1000)}K`;
  const own = listCatalogue(getProvider(current)?.id ?? current)
    .slice(0, PER_PROVIDER)
    .map((m) => ({
      label: `${current}/${m.model}  ${win(m.contextWindow)}  ${priceText(m)}${m.model === host.runtime.model ? "  (current)" : ""}`,
      spec: m.model,
    }));
  const others = listProviders()
    .filter((p) => p.id !== current && p.defaultModel && reachOf(p.id, profile) === "key")
    .map((p) => ({ label: `${p.id}/${p.defaultModel}`, spec: `${p.id}/${p.defaultModel}` }));
  return [...own, ...others];
}
