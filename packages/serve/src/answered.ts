// Which route answered a turn (SPEC E3, F2). A model id that names one route
// (`iris/<provider>/<model>`) may still be answered by another when that route fails and the
// fallback chain takes over: the answer then says so, its `model` being the id of the route that
// answered, and `x-iris-route` naming it (and `x-iris-fallback-from` the route asked for).
import { AGENT_MODEL_ID } from "./models.js";
import type { TurnOutcome } from "./turns.js";

export interface Answered {
  /** The `model` of the answer: the id asked for, unless a named route fell back to another. */
  model: string;
  headers: Record<string, string>;
}

export function answeredBy(requested: string, out: TurnOutcome): Answered {
  const origin = out.result.message?.origin;
  // A client's own messages carry the "client" origin: no route answered those.
  if (!origin || origin.provider === "client") return { model: requested, headers: {} };
  const route = `${origin.provider}/${origin.model}`;
  const named = requested.startsWith(`${AGENT_MODEL_ID}/`) ? requested.slice(AGENT_MODEL_ID.length + 1) : "";
  // `iris/chat` is the profile's route without tools, not a route of its own.
  if (!named.includes("/") || named === route)
    return { model: requested, headers: { "x-iris-route": route } };
  return {
    model: `${AGENT_MODEL_ID}/${route}`,
    headers: { "x-iris-route": route, "x-iris-fallback-from": named },
  };
}
