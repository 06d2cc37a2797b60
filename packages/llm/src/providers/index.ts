// Provider registry and runtime resolution. Importing this fills the registry with the bundled
// providers (a handful of small objects, no I/O).
import "./builtin/index.js";

export { getProvider, listProviders, type ProviderDef, registerProvider } from "./define.js";
export type { ProviderSettings } from "./key-scope.js";
export {
  MODEL_ENV,
  PROVIDER_ENV,
  type ResolveResult,
  type RoutingConfig,
  type RuntimeRequest,
  resolveRuntime,
} from "./resolve.js";
