export {
  type CatalogueCacheOptions,
  catalogueDocumentSchema,
  clearCatalogueCache,
  loadCatalogueCache,
  type RefreshOptions,
  type RefreshResult,
  refreshCatalogue,
} from "./cache.js";
export { estimateCost } from "./cost.js";
export { listCatalogue } from "./list.js";
export {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT,
  type LookupOptions,
  lookupModel,
  type ModelInfoSource,
  type ModelLookup,
} from "./lookup.js";
export { SNAPSHOT_SOURCE } from "./models.generated.js";
export type { ModelInfo, ModelPrice } from "./types.js";
