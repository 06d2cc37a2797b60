// Shared set-up of the wire e2e tests: a Runtime on the fake server and the stream helpers they read it with.
import type { StreamEvent } from "../../events.js";
import type { Runtime } from "../../runtime.js";
import type { AssistantMessage, LlmRequest } from "../../types.js";
import { streamLlm } from "../stream.js";

/** Sets up a runtime on `baseUrl` (the fake server) with the given route and every source "explicit". */
export function fakeRuntime(
  baseUrl: string,
  route: Pick<Runtime, "provider" | "apiMode" | "model" | "apiKey" | "compat">,
): Runtime {
  return {
    ...route,
    baseUrl,
    headers: {},
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "default",
      apiKey: "explicit",
    },
  };
}

/** Every event streamLlm yields for `request` on `runtime`. */
export async function collectStream(runtime: Runtime, request: LlmRequest): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of streamLlm(runtime, request, { idleTimeoutMs: 20_000 })) events.push(e);
  return events;
}

/** The message of the final `done` event; throws when the stream ended otherwise. */
export function done(events: StreamEvent[]): AssistantMessage {
  const last = events[events.length - 1];
  if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.message;
}
