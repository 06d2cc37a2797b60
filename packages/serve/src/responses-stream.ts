// The streamed form of POST /v1/responses: the event sequence the official SDK's accumulator
// requires (response-builder.ts), the agent's text as output_text deltas, Iris's own tools shown
// as readable text in the same message (a collapsed <details> block, switchable like chat
// completions: serve.tool_progress / X-Iris-Tool-Progress), the typed event `iris.tool.progress`
// only when asked (the SDK's accumulator throws on a type it does not know), and comment
// keep-alives (at each tool start, then every 15 s). A client that goes away interrupts the turn
// (SPEC L7); nothing partial is kept.
import { type HostEvent, TurnView } from "@iris/host";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { answeredBy } from "./answered.js";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError } from "./errors.js";
import { namedEventsOn, progressEvent, progressStyle, progressText } from "./progress.js";
import { ResponseBuilder, type ResponseMeta } from "./response-builder.js";
import type { ResponseRecord } from "./response-store.js";
import { failIfUpstream } from "./turn-outcome.js";
import type { PreparedTurn, TurnOutcome } from "./turns.js";

export interface ResponseStreamParts {
  prepared: PreparedTurn;
  meta: ResponseMeta;
  controller: AbortController;
  release: () => void;
  /** Stores the conversation for previous_response_id / conversation, and the response. */
  keep: (out: TurnOutcome, response: ResponseRecord["response"]) => Promise<void>;
  /** Hands the turn's events to the stream once it has begun. */
  listen: (onEvent: (e: HostEvent) => void) => void;
}

export function streamResponse(c: Context<ServeEnv>, deps: ServeDeps, parts: ResponseStreamParts): Response {
  const { prepared, meta, controller, release, keep } = parts;
  const style = progressStyle(c.req.header("x-iris-tool-progress"), deps.config.tool_progress);
  const named = namedEventsOn(c.req.header("x-iris-events"), deps.config.named_events, "responses");
  c.header("x-iris-tool-progress", style);
  c.header("x-accel-buffering", "no");
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => controller.abort());
    let queue: Promise<unknown> = Promise.resolve();
    const write = (event: { type: string }) => {
      queue = queue
        .then(() => stream.writeSSE({ event: event.type, data: JSON.stringify(event) }))
        .catch(() => {});
    };
    const keepAlive = () => {
      queue = queue.then(() => stream.write(": keepalive\n\n")).catch(() => {});
    };
    const builder = new ResponseBuilder(meta, write);
    // The turn view tells this answer's text and calls from a subagent's (folded under its task).
    const view = new TurnView();
    parts.listen((e) => {
      if (stream.aborted) return;
      const change = view.apply(e);
      if (change?.kind === "text") builder.text(change.delta);
      else if (change?.kind === "tool" && e.name === "tool_progress") {
        if (e.payload.phase === "before") keepAlive();
        if (style === "details") builder.text(progressText(e.payload));
        if (named) builder.extension("iris.tool.progress", progressEvent(e));
      }
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      builder.start();
      // Comment keep-alives while the turn runs (tools may take long; proxies close idle streams).
      timer = setInterval(keepAlive, deps.keepAliveMs);
      const out = await prepared.run();
      if (out.result.reason === "user_cancelled" || stream.aborted) return;
      try {
        failIfUpstream(out);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        builder.fail(err.code ?? "upstream_failed", err.message);
        await queue;
        return;
      }
      if (out.result.reason !== "natural" && out.result.reason !== "client_tool_calls")
        builder.text(out.result.text);
      // The completed response names the route that answered (a named route's fallback shows).
      meta.model = answeredBy(meta.model, out).model;
      const response = builder.finish(out.clientCalls, out.result.usage);
      // Kept before `response.completed` goes out (finish only queued it): a client may continue
      // from it at once.
      await keep(out, response);
      await queue;
      c.set("complete", true);
    } finally {
      if (timer) clearInterval(timer);
      await prepared.dispose();
      release();
    }
  });
}
