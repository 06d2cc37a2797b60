// `iris setup` (and the first interactive start without a provider): choose a provider, put its
// key into the profile's .env (mode 600, never into config.yaml), choose a model; config.yaml gets
// `model: {provider, name}` (and a `providers:` entry for a custom endpoint), comments kept.

import { ensureHome, loadDotenv, loadProfile, resolveHome, setConfigValue } from "@iris/host";
import { getProvider, listCatalogue, listProviders } from "@iris/llm";
import type { GlobalFlags } from "../flags.js";
import { endpointOf, fetchServerModels } from "../server-models.js";
import { type LineReader, lineReader } from "../ui/line-reader.js";
import { setEnvVar } from "./env-file.js";

const API_MODES = ["chat_completions", "responses", "anthropic_messages"] as const;
const MODEL_CHOICES = 15;

class Cancelled extends Error {}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

async function answer(r: LineReader, q: string, hidden = false): Promise<string> {
  const a = await r.ask(q, { hidden });
  if (a === undefined) throw new Cancelled();
  return a.trim();
}

async function choose<T>(r: LineReader, q: string, items: readonly T[], match: (t: T, a: string) => boolean) {
  for (;;) {
    const a = await answer(r, q);
    const n = Number(a);
    if (Number.isInteger(n) && n >= 1 && n <= items.length) return items[n - 1]!;
    const found = items.find((t) => match(t, a));
    if (found) return found;
    process.stdout.write("  not one of the choices; give its number or name\n");
  }
}

/** The models the endpoint lists, or undefined (said on stdout) when it cannot be asked. */
async function askServer(flags: GlobalFlags, providerId: string): Promise<string[] | undefined> {
  const out = process.stdout;
  const loaded = loadProfile({ env: process.env, ...(flags.profile ? { profile: flags.profile } : {}) });
  if (!loaded.ok) return undefined;
  const found = endpointOf(loaded, { provider: providerId });
  if (!found.ok) {
    out.write(`  ! ${found.error}\n`);
    return undefined;
  }
  out.write(`\nAsking ${found.endpoint.baseUrl}/models what it serves…\n`);
  const listed = await fetchServerModels(found.endpoint);
  if (!listed.ok) {
    out.write(`  ! ${listed.error}\n  the setup goes on; check the URL, the key and that the server runs\n`);
    return undefined;
  }
  out.write(
    `  the endpoint answers: ${listed.models.length} model${listed.models.length === 1 ? "" : "s"}\n`,
  );
  return listed.models;
}

export async function runSetup(flags: GlobalFlags): Promise<number> {
  const home = resolveHome({ env: process.env, ...(flags.profile ? { profile: flags.profile } : {}) });
  ensureHome(home);
  const out = process.stdout;
  const r = lineReader(process.stdin, out);
  try {
    out.write(`Iris setup · profile ${home.profile} · ${home.root}\n\nProviders:\n`);
    const providers = listProviders();
    for (const [i, p] of providers.entries()) {
      const how = p.local ? "local server, no key" : p.keyEnv.length ? p.keyEnv[0] : "custom endpoint";
      out.write(`  ${String(i + 1).padStart(2)}. ${p.id.padEnd(14)} ${p.label} (${how})\n`);
    }
    const def = await choose(
      r,
      "Provider (number or id): ",
      providers,
      (p, a) => getProvider(a)?.id === p.id,
    );
    let providerId = def.id;
    let keyVar = def.keyEnv[0];
    if (!def.baseUrl) {
      // A custom endpoint: it gets its own entry under `providers:`.
      providerId = (await answer(r, "Name for this endpoint [custom]: ")) || "custom";
      let baseUrl = "";
      while (!isHttpUrl(baseUrl)) baseUrl = await answer(r, "Base URL (e.g. http://localhost:8000/v1): ");
      const modes = API_MODES.map((m, i) => `${i + 1}. ${m}`).join(", ");
      const mode = await choose(r, `Wire format (${modes}): `, API_MODES, (m, a) => m === a);
      keyVar =
        (await answer(r, "Variable for its key (Enter if it needs none) [CUSTOM_API_KEY]: ")) ||
        "CUSTOM_API_KEY";
      const saved = setConfigValue(home.paths.config, ["providers", providerId], {
        base_url: baseUrl,
        api_mode: mode,
        api_key_env: keyVar,
      });
      if (!saved.ok) throw new Error(saved.errors.map((e) => e.message).join("; "));
    }
    if (keyVar && !def.local) {
      const existing = loadDotenv(home.paths.env).values[keyVar] ?? process.env[keyVar];
      const keep = existing ? await answer(r, `${keyVar} is already set. Keep it? [Y/n]: `) : "n";
      if (!/^y(es)?$|^$/i.test(keep)) {
        const key = await answer(r, `Paste your ${keyVar} (input hidden; Enter to skip): `, true);
        if (key) {
          setEnvVar(home.paths.env, keyVar, key);
          out.write(`  saved ${keyVar} in ${home.paths.env} (mode 600)\n`);
        }
      }
    }
    // A local or custom endpoint is asked what it serves (and so checked); else the catalogue.
    const served = def.local || !def.baseUrl ? await askServer(flags, providerId) : undefined;
    const models = served ?? listCatalogue(def.id).map((m) => m.model);
    const first =
      def.defaultModel && (!served || served.includes(def.defaultModel)) ? def.defaultModel : models[0];
    const shown = [...(first ? [first] : []), ...models.filter((m) => m !== first)].slice(0, MODEL_CHOICES);
    if (shown.length) {
      out.write("\nModels:\n");
      for (const [i, m] of shown.entries())
        out.write(`  ${String(i + 1).padStart(2)}. ${m}${i === 0 ? "  (default)" : ""}\n`);
    }
    const a = await answer(r, `Model (number or name${first ? ", Enter for the default" : ""}): `);
    const n = Number(a);
    const model = Number.isInteger(n) && n >= 1 && n <= shown.length ? shown[n - 1]! : a || first;
    if (!model) throw new Cancelled();
    for (const [key, value] of [
      ["provider", providerId],
      ["name", model],
    ] as const) {
      const saved = setConfigValue(home.paths.config, ["model", key], value);
      if (!saved.ok) throw new Error(saved.errors.map((e) => e.message).join("; "));
    }
    out.write(
      `\nSaved model ${providerId}/${model} in ${home.paths.config}.\nTry it:  iris -p "hello"   or just   iris\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof Cancelled) {
      process.stderr.write("\niris: setup cancelled; nothing more was changed\n");
      return 1;
    }
    process.stderr.write(`iris: setup failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    r.close();
  }
}
