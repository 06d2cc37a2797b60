// (provider, model, overrides) → the runtime record one request goes to (SPEC P1, P2, P3).
// Every field follows one precedence: explicit request > config.yaml > environment > built-in
// default, and `runtime.source` records which layer won. No per-provider branches: what differs
// between providers is data in their ProviderDef.
import { registerSecret } from "../log/redact.js";
import type { Runtime, ValueSource } from "../runtime.js";
import { API_MODES, type ApiMode } from "../types.js";
import { getProvider, isHttpUrl, listProviders, type ProviderDef, trimSlash } from "./define.js";
import { chooseKey, type ProviderSettings } from "./key-scope.js";

export interface RuntimeRequest {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiMode?: ApiMode;
  apiKey?: string;
}

/** The routing part of config.yaml (the iris config schema maps into this). */
export interface RoutingConfig {
  model?: { provider?: string; name?: string };
  providers?: Record<string, ProviderSettings>;
}

export type ResolveResult =
  | {
      ok: true;
      runtime: Runtime;
      /** Diagnostics for people (doctor, --verbose): e.g. a key that exists but was withheld. */
      notes: string[];
    }
  | { ok: false; error: string };

/** Env variables that choose a provider / model when neither the request nor config does. */
export const PROVIDER_ENV = "IRIS_PROVIDER";
export const MODEL_ENV = "IRIS_MODEL";

const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key)$/i;

interface Picked<T> {
  value: T | undefined;
  source: ValueSource;
}

/** The first defined, non-empty layer wins. */
function pick<T>(layers: [ValueSource, T | undefined | null | ""][]): Picked<T> {
  for (const [source, value] of layers) {
    if (value !== undefined && value !== null && value !== "") return { value: value as T, source };
  }
  return { value: undefined, source: "none" };
}

export function resolveRuntime(
  req: RuntimeRequest,
  config: RoutingConfig,
  env: Record<string, string | undefined>,
): ResolveResult {
  const providerPick = pick<string>([
    ["explicit", req.provider?.trim()],
    ["config", config.model?.provider?.trim()],
    ["env", env[PROVIDER_ENV]?.trim()],
  ]);
  if (!providerPick.value) {
    return {
      ok: false,
      error: `no provider chosen: pass --provider ID, set model.provider in config.yaml, or set ${PROVIDER_ENV}`,
    };
  }
  const found = findProvider(providerPick.value, config);
  if (!found) return { ok: false, error: unknownProvider(providerPick.value) };
  const { def, id, settings } = found;
  const sameAs = (name: string | undefined) => !name || findProvider(name, config)?.id === id;

  // A model named in config/env belongs to the provider named beside it, not to another one.
  const modelPick = pick<string>([
    ["explicit", req.model?.trim()],
    ["config", sameAs(config.model?.provider) ? config.model?.name?.trim() : undefined],
    ["env", sameAs(env[PROVIDER_ENV]) ? env[MODEL_ENV]?.trim() : undefined],
    ["default", def.defaultModel],
  ]);
  if (!modelPick.value) {
    return {
      ok: false,
      error: `no model chosen for provider '${id}': pass --model NAME or set model.name in config.yaml`,
    };
  }

  const apiModePick = pick<string>([
    ["explicit", req.apiMode],
    ["config", settings?.api_mode],
    ["default", def.apiMode],
  ]);
  const apiMode = apiModePick.value as ApiMode;
  if (!API_MODES.includes(apiMode)) {
    const where = apiModePick.source === "config" ? `providers.${id}.api_mode` : "--api-mode";
    return { ok: false, error: `${where} '${apiModePick.value}' must be one of ${API_MODES.join(", ")}` };
  }

  const envBaseUrl = (def.baseUrlEnv ?? []).map((n) => env[n]?.trim()).find((v) => !!v);
  const baseUrlPick = pick<string>([
    ["explicit", req.baseUrl?.trim()],
    ["config", settings?.base_url?.trim()],
    ["env", envBaseUrl],
    ["default", def.baseUrl],
  ]);
  if (!baseUrlPick.value) {
    const envHint = def.baseUrlEnv?.length ? `, or ${def.baseUrlEnv.join(" / ")}` : "";
    return {
      ok: false,
      error: `provider '${id}' needs a base URL: pass --base-url URL or set providers.${id}.base_url in config.yaml${envHint}`,
    };
  }
  if (!isHttpUrl(baseUrlPick.value)) {
    const where = { explicit: "--base-url", config: `providers.${id}.base_url`, env: "a base-URL variable" };
    const label = where[baseUrlPick.source as keyof typeof where] ?? "base URL";
    return { ok: false, error: `${label} '${baseUrlPick.value}' is not an http(s) URL` };
  }
  const baseUrl = trimSlash(baseUrlPick.value);

  const key = chooseKey({ def, id, baseUrl, explicitKey: req.apiKey, settings, envBaseUrl, env });
  for (const k of key.seen) registerSecret(k);
  const headers = { ...(def.headers ?? {}), ...(settings?.headers ?? {}) };
  for (const [name, value] of Object.entries(headers)) {
    // A credential put straight into configured headers is a secret too.
    if (CREDENTIAL_HEADER.test(name)) registerSecret(value.replace(/^\s*(bearer|basic)\s+/i, ""));
  }
  if (key.missing) return { ok: false, error: key.missing };

  const runtime: Runtime = {
    provider: id,
    apiMode,
    baseUrl,
    model: modelPick.value,
    headers,
    compat: { ...def.compat, auth: def.authByMode?.[apiMode] ?? def.compat.auth },
    source: {
      provider: providerPick.source,
      model: modelPick.source,
      baseUrl: baseUrlPick.source,
      apiMode: apiModePick.source,
      apiKey: key.source,
    },
  };
  if (key.apiKey) runtime.apiKey = key.apiKey;
  if (key.apiKeyEnv && key.apiKey) runtime.apiKeyEnv = key.apiKeyEnv;
  const t = settings?.timeouts;
  if (t?.first_byte_seconds || t?.idle_seconds)
    runtime.timeouts = {
      ...(t.first_byte_seconds ? { firstByteMs: t.first_byte_seconds * 1000 } : {}),
      ...(t.idle_seconds ? { idleMs: t.idle_seconds * 1000 } : {}),
    };
  const notes = key.notes.map((n) => `(${id}, ${runtime.model}): ${n}`);
  return { ok: true, runtime, notes };
}

/**
 * A registered provider (by id or alias), or one defined only in config (`providers.NAME` with a
 * base_url): that is an OpenAI-compatible endpoint shaped like `custom`, under the user's name.
 */
function findProvider(
  name: string,
  config: RoutingConfig,
): { def: ProviderDef; id: string; settings?: ProviderSettings } | undefined {
  const def = getProvider(name);
  const configured = config.providers ?? {};
  if (def) {
    const settings = configured[def.id] ?? configured[name] ?? configured[name.toLowerCase()];
    return { def, id: def.id, settings };
  }
  const settings = configured[name];
  const custom = getProvider("custom");
  if (settings?.base_url && custom) {
    return { def: { ...custom, id: name, label: name }, id: name, settings };
  }
  return undefined;
}

function unknownProvider(name: string): string {
  const ids = listProviders()
    .map((p) => p.id)
    .join(", ");
  return (
    `unknown provider '${name}'. Bundled providers: ${ids}. ` +
    `To add one, define it in config.yaml under providers: (providers.${name}: {base_url, api_mode, api_key_env}), ` +
    `or use provider 'custom' with --base-url URL.`
  );
}
