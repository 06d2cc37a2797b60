// (provider, model) → what the client believes about that route, and where the belief came
// from (SPEC M1, M3, P7). Order: explicit config window > per-route correction > fresh
// refreshed cache > bundled snapshot > a stated default, loudly marked unknown.
import { getProvider } from "../providers/define.js";
import { cachedModel } from "./cache.js";
import { BUNDLED_MODELS, MODEL_CORRECTIONS } from "./models.generated.js";
import { infoFromRow, type ModelInfo, type ModelRow } from "./types.js";

export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_OUTPUT = 8_192;

export type ModelInfoSource = "config" | "correction" | "bundled" | "cache" | "default";

export interface ModelLookup {
  info: ModelInfo;
  source: ModelInfoSource;
  /** False when no catalogue layer knows the route: the numbers are the stated default. */
  known: boolean;
  note?: string;
}

export interface LookupOptions {
  /** model.context_window from config.yaml: it wins over every catalogue layer. */
  contextWindowOverride?: number;
  /** Clock for the cache TTL, for tests. */
  now?: number;
}

/** Case-insensitive index per table, built on first use. */
const lowerIndex = new WeakMap<object, Map<string, string>>();
function findRow<T>(table: Readonly<Record<string, T>> | undefined, model: string): [string, T] | undefined {
  if (!table) return undefined;
  const exact = table[model];
  if (exact !== undefined) return [model, exact];
  let idx = lowerIndex.get(table);
  if (!idx) {
    idx = new Map(Object.keys(table).map((k) => [k.toLowerCase(), k]));
    lowerIndex.set(table, idx);
  }
  const key = idx.get(model.toLowerCase());
  const row = key === undefined ? undefined : table[key];
  return key === undefined || row === undefined ? undefined : [key, row];
}

function fromCatalogue(provider: string, model: string, now: number): ModelLookup | undefined {
  const corrected = findRow<readonly [ModelRow, string]>(MODEL_CORRECTIONS[provider], model);
  if (corrected) {
    const [row, why] = corrected[1];
    return { info: infoFromRow(provider, model, row), source: "correction", known: true, note: why };
  }
  const cached = cachedModel(provider, model, now);
  if (cached) return { info: cached, source: "cache", known: true };
  const bundled = findRow<ModelRow>(BUNDLED_MODELS[provider], model);
  if (bundled) return { info: infoFromRow(provider, model, bundled[1]), source: "bundled", known: true };
  return undefined;
}

export function lookupModel(provider: string, model: string, opts: LookupOptions = {}): ModelLookup {
  const id = getProvider(provider)?.id ?? provider.trim().toLowerCase();
  const name = model.trim();
  const found = fromCatalogue(id, name, opts.now ?? Date.now());
  const base: ModelLookup = found ?? {
    info: {
      provider: id,
      model: name,
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      maxOutput: DEFAULT_MAX_OUTPUT,
      price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      reasoning: false,
      vision: false,
    },
    source: "default",
    known: false,
    note:
      `UNKNOWN MODEL: (${id}, ${name}) is in no catalogue; assuming a ${groupDigits(DEFAULT_CONTEXT_WINDOW)}-token ` +
      `context window and ${groupDigits(DEFAULT_MAX_OUTPUT)} output tokens, and no price. ` +
      "Set model.context_window in config.yaml if that is wrong.",
  };

  const override = opts.contextWindowOverride;
  if (override === undefined) return base;
  if (!Number.isInteger(override) || override <= 0) {
    return {
      ...base,
      note: `ignored model.context_window ${override}: not a positive integer. ${base.note ?? ""}`.trim(),
    };
  }
  const catalogueSays = base.known ? `; the catalogue (${base.source}) says ${base.info.contextWindow}` : "";
  return {
    info: { ...base.info, contextWindow: override },
    source: "config",
    known: base.known,
    note: `context window ${override} set in config (model.context_window)${catalogueSays}`,
  };
}

/** 12345 → "12,345" without starting ICU (toLocaleString costs start-up time). */
function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
