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
import { loadDotenv, mergeEnv, type Profile } from "../config/index.js";
import { modelInfoFor, routingConfigOf } from "./route.js";
import { limitedClient } from "./route-limiter.js";
import type { SessionParent } from "./session-parent.js";

export function makeResilientClient(
  profile: Profile,
  parent: SessionParent,
  events: AgentEvents,
  primary: Runtime,
  onRouteChange: ((rt: Runtime) => void) | undefined,
): ResilientModelClient {
  const config = profile.config;
  const fallbacks = parseFallbackProviders(config.fallback_providers);
  return new ResilientModelClient({
    primary,
    fallbacks: fallbacks.ok ? fallbacks.routes : [],
    // Credentials are read again when a fallback activates (SPEC F2): a key rotated in .env
    // since start, or a .env that became unreadable, shows at that moment, not at restart.
    resolve: resolverFromConfig(routingConfigOf(config), () => freshEnv(profile)),
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
