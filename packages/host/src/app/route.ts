// Command-line route flags + config.yaml + environment → the runtime of the main model (SPEC P2).
import { type ApiMode, lookupModel, type ResolveResult, type RoutingConfig, resolveRuntime } from "@iris/llm";
import type { IrisConfig } from "../config/index.js";

export interface RouteFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiMode?: ApiMode;
}

export function routingConfigOf(config: IrisConfig): RoutingConfig {
  return {
    model: {
      ...(config.model.provider ? { provider: config.model.provider } : {}),
      ...(config.model.name ? { name: config.model.name } : {}),
    },
    providers: config.providers,
  };
}

/** The route fields of parsed command-line flags, leaving out the unset ones. */
export function routeFlagsOf(flags: RouteFlags): RouteFlags {
  return {
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiMode ? { apiMode: flags.apiMode } : {}),
  };
}

export function resolveMainRoute(
  flags: RouteFlags,
  config: IrisConfig,
  env: Record<string, string>,
): ResolveResult {
  return resolveRuntime(routeFlagsOf(flags), routingConfigOf(config), env);
}

/** The catalogue's view of the model, with an explicit config window winning (SPEC M1, K5). */
export function modelInfoFor(provider: string, model: string, config: IrisConfig) {
  const sameModel = !config.model.name || config.model.name === model;
  const override = sameModel ? config.model.context_window : undefined;
  return lookupModel(provider, model, override ? { contextWindowOverride: override } : undefined);
}
