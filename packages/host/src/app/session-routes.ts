// A session's routes besides its main one: an explicit model switch (SPEC S2, H7) and the client
// of smart approval mode's judge (T4).
import type { ResilientModelClient } from "@iris/agent";
import type { Runtime } from "@iris/llm";
import type { Profile } from "../config/index.js";
import { splitModelSpec } from "./context-report.js";
import { type RouteFlags, resolveMainRoute } from "./route.js";

/** `spec` is "MODEL" (same provider) or "PROVIDER/MODEL". */
export function resolveSwitch(
  spec: string,
  profile: Profile,
  current: Runtime,
  route: RouteFlags | undefined,
): ReturnType<typeof resolveMainRoute> {
  const { provider, model } = splitModelSpec(spec, profile.config, current.provider);
  // The same provider keeps the endpoint and wire format given on the command line.
  const flags = provider === current.provider ? route : undefined;
  return resolveMainRoute(
    {
      provider,
      model,
      ...(flags?.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags?.apiMode ? { apiMode: flags.apiMode } : {}),
    },
    profile.config,
    profile.env,
  );
}

/**
 * `approvals.judge_model`, or the main route, with the fallback chain; its route changes are its
 * own (the context control is left alone).
 */
export function judgeClient(
  profile: Profile,
  current: Runtime,
  main: ResilientModelClient,
  clientFor: (rt: Runtime) => ResilientModelClient,
): ResilientModelClient {
  const spec = profile.config.approvals.judge_model;
  if (!spec) return main.spawn({ onRouteChange: undefined });
  const resolved = resolveMainRoute(
    splitModelSpec(spec, profile.config, current.provider),
    profile.config,
    profile.env,
  );
  if (!resolved.ok) throw new Error(`approvals.judge_model ${spec} cannot be used: ${resolved.error}`);
  return clientFor(resolved.runtime);
}
