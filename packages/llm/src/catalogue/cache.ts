// The optional refreshable catalogue (SPEC M1): fetched on request only, kept in a disk cache
// with a TTL, consulted by lookups while fresh. Never fetched at build, start-up or in tests
// (tests pass their own `fetch` or a 127.0.0.1 server).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { FLAG_REASONING, FLAG_VISION, infoFromRow, type ModelInfo, type ModelRow } from "./types.js";

const priceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
});

const entrySchema = z.object({
  contextWindow: z.number().int().positive(),
  maxOutput: z.number().int().nonnegative(),
  price: priceSchema.optional(),
  reasoning: z.boolean().default(false),
  vision: z.boolean().default(false),
});

/** The catalogue document: the same shape as catalogue-data/snapshot.json. */
export const catalogueDocumentSchema = z.object({
  providers: z.record(z.string(), z.record(z.string(), entrySchema)),
});

const cacheFileSchema = catalogueDocumentSchema.extend({
  fetchedAt: z.number(),
  url: z.string(),
});

export interface CatalogueCacheOptions {
  cacheFile: string;
  ttlMs: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface RefreshOptions extends CatalogueCacheOptions {
  url: string;
  fetch?: typeof fetch;
  /** Fetch even when the disk cache is still fresh. */
  force?: boolean;
  timeoutMs?: number;
}

export type RefreshResult =
  | { ok: true; from: "network" | "disk"; models: number; fetchedAt: number }
  | { ok: false; error: string };

interface ActiveCache {
  fetchedAt: number;
  ttlMs: number;
  rows: Map<string, ModelRow>;
}
let active: ActiveCache | undefined;

const keyOf = (provider: string, model: string) => `${provider}\u0000${model.toLowerCase()}`;

function activate(doc: z.infer<typeof cacheFileSchema>, ttlMs: number): number {
  const rows = new Map<string, ModelRow>();
  for (const [provider, models] of Object.entries(doc.providers)) {
    for (const [model, e] of Object.entries(models)) {
      const p = e.price ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      const flags = (e.reasoning ? FLAG_REASONING : 0) | (e.vision ? FLAG_VISION : 0);
      rows.set(keyOf(provider, model), [
        e.contextWindow,
        e.maxOutput,
        p.input,
        p.output,
        p.cacheRead,
        p.cacheWrite,
        flags,
      ]);
    }
  }
  active = { fetchedAt: doc.fetchedAt, ttlMs, rows };
  return rows.size;
}

/** Reads the disk cache (no network) and uses it for lookups while it is fresh. */
export function loadCatalogueCache(
  opts: CatalogueCacheOptions,
): { ok: true; models: number; fetchedAt: number } | { ok: false; error: string } {
  const now = (opts.now ?? Date.now)();
  let raw: string;
  try {
    raw = readFileSync(opts.cacheFile, "utf8");
  } catch {
    return { ok: false, error: `no catalogue cache at ${opts.cacheFile}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: `catalogue cache ${opts.cacheFile} is not valid JSON` };
  }
  const parsed = cacheFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `catalogue cache ${opts.cacheFile} has the wrong shape` };
  if (now - parsed.data.fetchedAt >= opts.ttlMs) {
    return { ok: false, error: `catalogue cache ${opts.cacheFile} is older than its TTL` };
  }
  const models = activate(parsed.data, opts.ttlMs);
  return { ok: true, models, fetchedAt: parsed.data.fetchedAt };
}

/**
 * Refreshes the catalogue from `url` into `cacheFile`, unless the disk cache is still fresh.
 * The document has the shape of catalogue-data/snapshot.json. Never throws.
 */
export async function refreshCatalogue(opts: RefreshOptions): Promise<RefreshResult> {
  if (!opts.force) {
    const disk = loadCatalogueCache(opts);
    if (disk.ok) return { ok: true, from: "disk", models: disk.models, fetchedAt: disk.fetchedAt };
  }
  const doFetch = opts.fetch ?? fetch;
  let body: unknown;
  try {
    const res = await doFetch(opts.url, {
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      headers: { accept: "application/json" },
    });
    if (!res.ok) return { ok: false, error: `catalogue refresh from ${opts.url} failed: HTTP ${res.status}` };
    body = await res.json();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `catalogue refresh from ${opts.url} failed: ${why}` };
  }
  const parsed = catalogueDocumentSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue ? `${issue.path.join(".")}: ${issue.message}` : "unknown";
    return { ok: false, error: `catalogue from ${opts.url} has the wrong shape (${at})` };
  }
  const doc = { ...parsed.data, fetchedAt: (opts.now ?? Date.now)(), url: opts.url };
  try {
    mkdirSync(dirname(opts.cacheFile), { recursive: true });
    const tmp = `${opts.cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(doc));
    renameSync(tmp, opts.cacheFile);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `could not write catalogue cache ${opts.cacheFile}: ${why}` };
  }
  const models = activate(doc, opts.ttlMs);
  return { ok: true, from: "network", models, fetchedAt: doc.fetchedAt };
}

/** Forgets the in-memory cache (the disk file stays). */
export function clearCatalogueCache(): void {
  active = undefined;
}

/** The cached facts for (provider, model), if a fresh cache holds them. */
export function cachedModel(provider: string, model: string, now: number): ModelInfo | undefined {
  if (!active || now - active.fetchedAt >= active.ttlMs) return undefined;
  const row = active.rows.get(keyOf(provider, model));
  return row ? infoFromRow(provider, model, row) : undefined;
}
