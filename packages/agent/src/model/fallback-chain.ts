// The fallback chain's configuration (SPEC F2, U4): `fallback_providers` in config.yaml, an
// ordered list of routes, and how an entry becomes a runtime — resolved freshly at activation,
// so a key rotated in the environment or .env is picked up and an unreadable one is noticed then.
import { type RoutingConfig, type Runtime, resolveRuntime } from "@iris/llm";
import { z } from "zod";

/** One route of the chain as configured: the primary's or a fallback's. */
export interface RouteSpec {
  provider: string;
  model: string;
  baseUrl?: string;
}

export type RouteResolution = { ok: true; runtime: Runtime } | { ok: false; error: string };

/** Turns a route into a runtime with its credentials, at the moment it is needed. */
export type RouteResolver = (spec: RouteSpec) => RouteResolution | Promise<RouteResolution>;

const FallbackEntrySchema = z
  .object({
    provider: z.string().trim().min(1, "provider must be a non-empty string"),
    model: z.string().trim().min(1, "model must be a non-empty string"),
    base_url: z.string().trim().min(1).optional(),
  })
  .strict();

export const FallbackProvidersSchema = z.array(FallbackEntrySchema);

export type FallbackProvidersConfig = z.infer<typeof FallbackProvidersSchema>;

/** Validates `fallback_providers` from config.yaml; errors name the entry and field. */
export function parseFallbackProviders(
  input: unknown,
): { ok: true; routes: RouteSpec[] } | { ok: false; error: string } {
  if (input === undefined || input === null) return { ok: true, routes: [] };
  const parsed = FallbackProvidersSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = `fallback_providers${(issue?.path ?? []).map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("")}`;
    return {
      ok: false,
      error: `${where}: ${issue?.message ?? "invalid"} (each entry is {provider, model, base_url?})`,
    };
  }
  return {
    ok: true,
    routes: parsed.data.map((e) => ({
      provider: e.provider,
      model: e.model,
      ...(e.base_url ? { baseUrl: e.base_url } : {}),
    })),
  };
}

/** `provider/model`, for status lines and hooks. */
export function routeLabel(route: { provider: string; model: string }): string {
  return `${route.provider}/${route.model}`;
}

/** Identity of a resolved route: same provider, model and base URL means the same route. */
export function routeKey(route: { provider: string; model: string; baseUrl: string }): string {
  return `${route.provider}\u0000${route.model}\u0000${trimSlash(route.baseUrl)}`;
}

/** Whether a configured entry names the given resolved route (before resolving it). */
export function specMatches(spec: RouteSpec, runtime: Runtime): boolean {
  if (spec.provider !== runtime.provider || spec.model !== runtime.model) return false;
  return spec.baseUrl === undefined || trimSlash(spec.baseUrl) === trimSlash(runtime.baseUrl);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * A resolver over llm's `resolveRuntime`. `env` is called at every resolution, so it can re-read
 * the process environment and .env (or a credential file) each time a route is activated.
 */
export function resolverFromConfig(
  config: RoutingConfig,
  env: () => Record<string, string | undefined>,
): RouteResolver {
  return (spec) => {
    let vars: Record<string, string | undefined>;
    try {
      vars = env();
    } catch (err) {
      return {
        ok: false,
        error: `cannot read credentials: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    const res = resolveRuntime(
      { provider: spec.provider, model: spec.model, ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}) },
      config,
      vars,
    );
    return res.ok ? { ok: true, runtime: res.runtime } : { ok: false, error: res.error };
  };
}
