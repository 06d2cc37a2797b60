// A session's model client: the route, the fallback chain, the process's cooldowns and rate
// limiter, and credentials read again when a fallback activates (SPEC F2, U4).
import {
  type AgentEvents,
  LlmModelClient,
  parseFallbackProviders,
  ResilientModelClient,
  resolverFromConfig,
} from "@iris/agent";
import { estimateCost, type Runtime } from "@iris/llm";
import { type IrisConfig, loadDotenv, mergeEnv, type Profile } from "../config/index.js";
import { modelInfoFor, routingConfigOf } from "./route.js";
import { limitedClient } from "./route-limiter.js";
import type { SessionParent } from "./session-parent.js";

/** The fallback chain and the routing view of a loaded config (never changed in place), parsed
 * once: an API server makes a model client per request. */
const routingOf = new WeakMap<
  IrisConfig,
  { fallbacks: ReturnType<typeof parseFallbackProviders>; routing: ReturnType<typeof routingConfigOf> }
>();

function routing(config: IrisConfig) {
  let got = routingOf.get(config);
  if (!got) {
    got = { fallbacks: parseFallbackProviders(config.fallback_providers), routing: routingConfigOf(config) };
    routingOf.set(config, got);
  }
  return got;
}

export function makeResilientClient(
  profile: Profile,
  parent: SessionParent,
  events: AgentEvents,
  primary: Runtime,
  onRouteChange: ((rt: Runtime) => void) | undefined,
): ResilientModelClient {
  const config = profile.config;
  const { fallbacks, routing: routingConfig } = routing(config);
  return new ResilientModelClient({
    primary,
    fallbacks: fallbacks.ok ? fallbacks.routes : [],
    // Credentials are read again when a fallback activates (SPEC F2): a key rotated in .env
    // since start, or a .env that became unreadable, shows at that moment, not at restart.
    resolve: resolverFromConfig(routingConfig, () => freshEnv(profile)),
    makeClient: (rt) => {
      const client = new LlmModelClient(rt, {
        costOf: (u) => estimateCost(u, modelInfoFor(rt.provider, rt.model, config).info),
      });
      const limiter = parent.routeLimiter;
      return limiter ? limitedClient(client, limiter, rt) : client;
    },
    events,
    ...(onRouteChange ? { onRouteChange } : {}),
    // Cooldowns are the process's, kept in the store: a route that failed for one session is
    // passed over by every session, and by the next process (SPEC U4).
    cooldowns: parent.cooldowns,
  });
}

/** The environment as start-up saw it, with the profile's .env read again now. */
function freshEnv(profile: Profile): Record<string, string> {
  return mergeEnv(process.env, loadDotenv(profile.home.paths.env).values).env;
}
