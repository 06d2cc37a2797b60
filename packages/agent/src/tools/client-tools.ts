// Tools an API client runs itself (SPEC E3): offered to the model next to the session's own,
// marked `external` so the turn ends with their calls unanswered (`client_tool_calls`) and the
// client's next request brings the results. Iris never runs them.
import type { ToolCallPart, ToolSpec } from "@iris/llm";
import type { ToolBox, ToolRunContext, ToolTraits } from "../ports.js";

const EXTERNAL: ToolTraits = {
  effect: "communicate",
  parallelSafe: false,
  interactive: false,
  external: true,
};

/** `inner` plus the client's tools; a client tool named like one of `inner`'s is not added. */
export function withClientTools(inner: ToolBox, clientTools: readonly ToolSpec[]): ToolBox {
  const own = new Set(inner.specs().map((s) => s.name));
  const client = new Map(clientTools.filter((t) => !own.has(t.name)).map((t) => [t.name, t]));
  return {
    specs: () => [...inner.specs(), ...client.values()],
    traits: (name) => (client.has(name) ? EXTERNAL : inner.traits(name)),
    run: (call: ToolCallPart, ctx: ToolRunContext) =>
      client.has(call.name)
        ? // The turn never dispatches an external call; this answer only guards a broken loop.
          Promise.resolve({
            content: JSON.stringify({ error: `${call.name} is run by the client` }),
            isError: true,
          })
        : inner.run(call, ctx),
  };
}
