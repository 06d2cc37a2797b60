// The choices of `/model` without a name: the current provider's models (its server's own list
// for a custom or local endpoint, else the catalogue's), then the default model of every other
// provider the current keys reach.

import type { Session } from "@iris/host";
import { getProvider, listCatalogue, listProviders } from "@iris/llm";
import { priceText, reachOf } from "../commands/models.js";
import { fetchServerModels, listsFromServer } from "../server-models.js";

const PER_PROVIDER = 20;

export interface ModelChoice {
  label: string;
  /** What `/model` is given: "NAME" or "PROVIDER/NAME". */
  spec: string;
}

export async function modelChoices(session: Session): Promise<{ choices: ModelChoice[]; note?: string }> {
  const profile = session.profile;
  const current = session.runtime.provider;
  const win = (n: number) => `${Math.round(n / 1000)}K`;
  const mark = (m: string) => (m === session.runtime.model ? "  (current)" : "");
  let own: ModelChoice[];
  let note: string | undefined;
  if (listsFromServer(current, profile)) {
    const listed = await fetchServerModels(session.runtime);
    if (!listed.ok) note = `no model list from the server: ${listed.error}`;
    own = (listed.ok ? listed.models : [])
      .slice(0, PER_PROVIDER)
      .map((m) => ({ label: `${current}/${m}${mark(m)}`, spec: m }));
  } else {
    own = listCatalogue(getProvider(current)?.id ?? current)
      .slice(0, PER_PROVIDER)
      .map((m) => ({
        label: `${current}/${m.model}  ${win(m.contextWindow)}  ${priceText(m)}${mark(m.model)}`,
        spec: m.model,
      }));
  }
  const others = listProviders()
    .filter((p) => p.id !== current && p.defaultModel && reachOf(p.id, profile) === "key")
    .map((p) => ({ label: `${p.id}/${p.defaultModel}`, spec: `${p.id}/${p.defaultModel}` }));
  return { choices: [...own, ...others], ...(note ? { note } : {}) };
}
