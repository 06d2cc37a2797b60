// Send-time shaping for whatever route the next call goes to (SPEC H4–H6): the route may change
// mid-turn on fallback, so the target is read at call time, never fixed when the Agent is made.
import { type ApiMode, type ExpandHook, getLogger, issuerOf, type Message, shapeForTarget } from "@iris/llm";
import type { ModelClient } from "../ports.js";
import type { RouteInfo } from "./types.js";

export interface RouteTraits {
  contextWindow: number;
  /** false: text-only (images become a note); undefined: not known, images are sent. */
  vision: boolean | undefined;
}

export function makeShaper(
  model: ModelClient,
  traitsOf: (provider: string, model: string) => RouteTraits,
  system: string,
  /** Expands server-side compaction items the route cannot read (SPEC H5). */
  expand?: ExpandHook,
): (messages: readonly Message[], route?: RouteInfo) => Message[] {
  return (messages, attemptRoute) => {
    const route = attemptRoute ?? model.route();
    const traits = traitsOf(route.provider, route.model);
    const result = shapeForTarget(
      messages,
      {
        provider: route.provider,
        apiMode: route.apiMode as ApiMode,
        model: route.model,
        contextWindow: traits.contextWindow,
        ...(traits.vision !== undefined ? { vision: traits.vision } : {}),
        issuer: issuerOf(route),
      },
      { system, ...(expand ? { expand } : {}) },
    );
    const log = getLogger({ component: "shaping" });
    // A removal means some path forgot to persist a result (H3/H6): worth a warning every time.
    for (const r of result.removed)
      log.warn("history repaired before sending", { detail: r, route: `${route.provider}/${route.model}` });
    for (const n of result.notes) log.debug("shaping note", { detail: n });
    return result.messages;
  };
}
