// The provider registry (SPEC P1, P5). A provider is data: one file under builtin/ calls
// registerProvider. Nothing else in the code knows endpoints, key variables or quirks.
import type { ProviderCompat } from "../runtime.js";
import { API_MODES, type ApiMode } from "../types.js";

export interface ProviderDef {
  /** Lower-case id used in config and on the command line, e.g. "openrouter". */
  id: string;
  /** What people call it, for menus and diagnostics. */
  label: string;
  apiMode: ApiMode;
  /**
   * Default base URL, without the wire path (adapters append /chat/completions, …).
   * Empty when the user must supply one (custom, Azure AI Foundry).
   */
  baseUrl: string;
  /** Variables that may hold the key, in priority order. Empty for keyless providers. */
  keyEnv: string[];
  /** Variables that may hold a base URL (the env layer of SPEC P2), in priority order. */
  baseUrlEnv?: string[];
  headers?: Record<string, string>;
  compat: ProviderCompat;
  /** How the key travels when the api mode is switched (e.g. custom + anthropic_messages). */
  authByMode?: Partial<Record<ApiMode, ProviderCompat["auth"]>>;
  defaultModel?: string;
  /** Runs on the user's machine: a missing key is not an error. */
  local?: boolean;
  /** Other names accepted for this provider (e.g. "kimi" for moonshot). */
  aliases?: string[];
}

const registry = new Map<string, ProviderDef>();
const aliasToId = new Map<string, string>();

const ID_RE = /^[a-z0-9][a-z0-9._-]*$/;

/** Adds (or replaces: last writer wins) a provider. Throws on a malformed definition. */
export function registerProvider(def: ProviderDef): void {
  if (!ID_RE.test(def.id)) throw new Error(`provider id '${def.id}' must match ${ID_RE}`);
  if (!API_MODES.includes(def.apiMode)) {
    throw new Error(`provider '${def.id}': apiMode '${def.apiMode}' is not one of ${API_MODES.join(", ")}`);
  }
  if (def.baseUrl !== "" && !isHttpUrl(def.baseUrl)) {
    throw new Error(`provider '${def.id}': baseUrl '${def.baseUrl}' is not an http(s) URL`);
  }
  const frozen: ProviderDef = Object.freeze({
    ...def,
    baseUrl: trimSlash(def.baseUrl),
    keyEnv: [...def.keyEnv],
    aliases: def.aliases ? [...def.aliases] : [],
  });
  registry.set(def.id, frozen);
  for (const alias of frozen.aliases ?? []) aliasToId.set(alias.toLowerCase(), def.id);
}

/** The provider registered under `idOrAlias` (case-insensitive; aliases accepted). */
export function getProvider(idOrAlias: string): ProviderDef | undefined {
  const key = idOrAlias.trim().toLowerCase();
  return registry.get(key) ?? registry.get(aliasToId.get(key) ?? "");
}

export function listProviders(): ProviderDef[] {
  // Ids are lower-case ASCII: a plain comparison sorts them, and the first localeCompare would
  // start ICU's collator (~30–90 ms of start-up on every run).
  return [...registry.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
