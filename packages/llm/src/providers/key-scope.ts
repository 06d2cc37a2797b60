// Which key, if any, may travel with a request (SPEC P3). A key is paired with the endpoint it
// was given for: an env key with the provider's own default endpoint, a config key with the
// base_url configured beside it. A request to any other origin gets no key, only a diagnostic.
import type { ValueSource } from "../runtime.js";
import type { ProviderDef } from "./define.js";

export interface ProviderSettings {
  base_url?: string;
  api_mode?: string;
  api_key_env?: string;
  api_key?: string;
  headers?: Record<string, string>;
  /** Per-provider stall limits (config `providers.ID.timeouts`). */
  timeouts?: { first_byte_seconds?: number; idle_seconds?: number };
}

export interface KeyChoice {
  apiKey?: string;
  apiKeyEnv?: string;
  source: ValueSource;
  /** Every key value seen (sent or withheld), so the logger can redact them all. */
  seen: string[];
  /** Why a key that exists was not sent, or what to set; for diagnostics, never the key. */
  notes: string[];
  /** A key is needed and none is available: the error to show. */
  missing?: string;
}

interface Candidate {
  value: string | undefined;
  source: ValueSource;
  envName?: string;
  /** Origins this key belongs to; null = anywhere (an explicit key). */
  origins: Set<string> | null;
  label: string;
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function originSet(...urls: (string | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const u of urls) {
    const o = u ? originOf(u) : undefined;
    if (o) out.add(o);
  }
  return out;
}

export function chooseKey(input: {
  def: ProviderDef;
  id: string;
  baseUrl: string;
  explicitKey?: string;
  settings?: ProviderSettings;
  /** The base URL the env layer supplied, if any (pairs env keys for providers with no default). */
  envBaseUrl?: string;
  env: Record<string, string | undefined>;
}): KeyChoice {
  const { def, id, baseUrl, settings, env } = input;
  const target = originOf(baseUrl);
  // The provider's own endpoint. A provider with no default (custom, Azure) owns what its own
  // config or base-URL variable names.
  const own = def.baseUrl ? originSet(def.baseUrl) : originSet(settings?.base_url, input.envBaseUrl);
  const configured = originSet(def.baseUrl, settings?.base_url);

  const candidates: Candidate[] = [];
  if (input.explicitKey) {
    candidates.push({
      value: input.explicitKey,
      source: "explicit",
      origins: null,
      label: "the explicit key",
    });
  }
  if (settings?.api_key) {
    candidates.push({
      value: settings.api_key,
      source: "config",
      origins: configured,
      label: `providers.${id}.api_key`,
    });
  }
  const notes: string[] = [];
  if (settings?.api_key_env) {
    const name = settings.api_key_env;
    if (!env[name]) notes.push(`providers.${id}.api_key_env names ${name}, which is not set`);
    candidates.push({ value: env[name], source: "config", envName: name, origins: configured, label: name });
  }
  for (const name of def.keyEnv) {
    candidates.push({ value: env[name], source: "env", envName: name, origins: own, label: name });
  }

  const seen = candidates.map((c) => c.value).filter((v): v is string => !!v);
  for (const c of candidates) {
    if (!c.value) continue;
    if (c.origins === null || (target !== undefined && c.origins.has(target))) {
      return { apiKey: c.value, apiKeyEnv: c.envName, source: c.source, seen, notes };
    }
    notes.push(
      `${c.label} is set but NOT sent: ${baseUrl} is not the endpoint that key belongs to (${[...c.origins].join(", ") || "none configured"}). ` +
        `To send a key there, set providers.${id}.base_url together with providers.${id}.api_key_env in config.yaml, or pass the key explicitly.`,
    );
  }

  const needsKey = def.compat.auth !== "none" && !def.local && def.keyEnv.length > 0;
  const talkingToOwn = target !== undefined && own.has(target);
  if (needsKey && talkingToOwn) {
    return {
      source: "none",
      seen,
      notes,
      missing: `provider '${id}' needs ${def.keyEnv.join(" or ")} (or providers.${id}.api_key_env in config.yaml)`,
    };
  }
  if (!talkingToOwn || def.local || def.keyEnv.length === 0) {
    notes.push(`no API key is sent to ${baseUrl}`);
  }
  return { source: "none", seen, notes };
}
