// The streamed form of POST /v1/responses: the event sequence the official SDK's accumulator
// requires (response-builder.ts), the agent's text as output_text deltas, Iris's own tools shown
// as readable text in the same message (a collapsed <details> block, switchable like chat
// completions: serve.tool_progress / X-Iris-Tool-Progress), the typed event `iris.tool.progress`
// only when asked (the SDK's accumulator throws on a type it does not know), and comment
// keep-alives (at each tool start, then every 15 s). A client that goes away interrupts the turn
// (SPEC L7); nothing partial is kept. In the background (`background: true`) the turn runs on
// without the client instead, every event is recorded under its sequence number (the SSE `id:`),
// and GET /v1/responses/{id}?stream=true resumes it on any replica (responses-resume.ts).
import { type HostEvent, TurnView } from "@iris/host";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { answeredBy } from "./answered.js";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError } from "./errors.js";
import { namedEventsOn, progressEvent, progressStyle, progressText } from "./progress.js";
import { ResponseBuilder, type ResponseEvent, type ResponseMeta } from "./response-builder.js";
import type { ResponseRecord } from "./response-store.js";
import type { StreamRecorder } from "./stream-recorder.js";
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
  /** A background response's record: the turn outlives the client, every event is kept. */
  recorder?: StreamRecorder;
}

export function streamResponse(c: Context<ServeEnv>, deps: ServeDeps, parts: ResponseStreamParts): Response {
  const { prepared, meta, controller, release, keep, recorder } = parts;
  const style = progressStyle(c.req.header("x-iris-tool-progress"), deps.config.tool_progress);
  const named = namedEventsOn(c.req.header("x-iris-events"), deps.config.named_events, "responses");
  c.header("x-iris-tool-progress", style);
  c.header("x-accel-buffering", "no");
  let ended: (() => void) | undefined;
  if (recorder) {
    const turn = {
      stop: () => controller.abort(),
      ended: new Promise<void>((resolve) => {
        ended = resolve;
      }),
    };
    deps.background.add(turn);
    void turn.ended.then(() => deps.background.delete(turn));
  }
  return streamSSE(c, async (stream) => {
    if (!recorder) stream.onAbort(() => controller.abort());
    let queue: Promise<unknown> = Promise.resolve();
    const send = (event: ResponseEvent) => {
      const data = JSON.stringify(event);
      recorder?.push(event.sequence_number, event.type, data);
      if (stream.aborted) return;
      // A recorded event's id is what Last-Event-ID names when the client comes back.
      const id = recorder ? { id: String(event.sequence_number) } : {};
      queue = queue.then(() => stream.writeSSE({ event: event.type, data, ...id })).catch(() => {});
    };
    // The last events wait while the response is stored: whoever sees `response.completed` (here
    // or on another replica) may continue from it at once.
    let held: ResponseEvent[] | undefined;
    const write = (event: ResponseEvent) => (held ? held.push(event) : send(event));
    const keepAlive = () => {
      queue = queue.then(() => stream.write(": keepalive\n\n")).catch(() => {});
    };
    const builder = new ResponseBuilder(meta, write);
    // The turn view tells this answer's text and calls from a subagent's (folded under its task).
    const view = new TurnView();
    parts.listen((e) => {
      if (stream.aborted && !recorder) return;
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
      if (out.result.reason === "user_cancelled" || (stream.aborted && !recorder)) {
        // A recorded stream ends for its readers too (the server stopped under the turn).
        if (recorder)
          builder.fail("cancelled", "the turn was interrupted before it ended (the server stopped)");
        return;
      }
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
      held = [];
      const response = builder.finish(out.clientCalls, out.result.usage);
      try {
        await keep(out, response);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        held = undefined;
        builder.fail(err.code ?? "store_error", err.message);
        await queue;
        return;
      }
      for (const e of held.splice(0)) send(e);
      held = undefined;
      await queue;
      c.set("complete", true);
    } catch (err) {
      // Readers of a recorded stream learn it ended; this client sees hono's error handling.
      held = undefined;
      if (recorder) builder.fail("server_error", "internal server error");
      throw err;
    } finally {
      try {
        if (timer) clearInterval(timer);
        await recorder?.finish();
        await prepared.dispose();
        release();
      } finally {
        ended?.();
      }
    }
  });
}
